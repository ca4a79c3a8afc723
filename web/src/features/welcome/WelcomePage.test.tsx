import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockServer, renderApp, signedOut } from '../../test/utils';

describe('Welcome page', () => {
  it.each([
    'Get Started Now',
    'Sign In',
    'Get Your Instant AI Report',
    'Check Your Heart Health Now',
    'Access Dashboard',
  ])('"%s" goes to role selection', (name) => {
    mockServer({ 'GET /api/auth/me': signedOut });
    renderApp('/');
    const links = screen.getAllByRole('link', { name });
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(link).toHaveAttribute('href', '/auth');
  });

  it('makes no unverified claims and says results are not diagnoses', () => {
    mockServer({ 'GET /api/auth/me': signedOut });
    const { container } = renderApp('/');
    const text = container.textContent ?? '';
    for (const claim of [/10,000/, /95%/, /HIPAA/i, /three ML models/i, /CTG/, /fetal/i, /24\/7/]) {
      expect(text).not.toMatch(claim);
    }
    expect(text).toMatch(/not diagnoses/);
  });
});
