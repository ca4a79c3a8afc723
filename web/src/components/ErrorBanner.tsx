import { CircleAlert } from 'lucide-react';

/** The red banner for a failed action; announced to screen readers. */
export function ErrorBanner({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <div className="error-banner" role="alert">
      <CircleAlert aria-hidden="true" size={18} />
      <span>{message}</span>
    </div>
  );
}
