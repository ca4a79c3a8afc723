import { afterEach, describe, expect, it } from 'vitest';
import i18n from '../i18n';
import { adviceTexts, findingText, modalityOfModel, reasonText } from './clinicalText';

describe("the models' words in the reader's language", () => {
  afterEach(async () => {
    await i18n.changeLanguage('en');
  });

  it('translates a finding whose stored text is the catalogue sentence for its label', async () => {
    await i18n.changeLanguage('es');
    expect(findingText('ecg', 'af', 'Atrial fibrillation suspected')).toBe('Sospecha de fibrilación auricular');
    expect(findingText('clinical', 'disease', 'Coronary artery disease likely')).toBe('Enfermedad coronaria probable');
    await i18n.changeLanguage('fr');
    expect(findingText('ppg', 'irregular', 'Irregular pulse rhythm, not typical of atrial fibrillation')).toBe(
      "Rythme du pouls irrégulier, non typique d'une fibrillation atriale",
    );
  });

  it('keeps a finding the catalogue does not know, or whose text is not its sentence', async () => {
    await i18n.changeLanguage('es');
    expect(findingText('ecg', 'normal', 'Echo')).toBe('Echo');
    expect(findingText('ecg', 'mystery', 'Something new')).toBe('Something new');
    expect(findingText(null, 'af', 'Atrial fibrillation suspected')).toBe('Atrial fibrillation suspected');
  });

  it('writes recommendations from their codes, modality names included, else shows the stored ones', async () => {
    await i18n.changeLanguage('fr');
    const advice = [
      { code: 'combined.not_performed', params: { modality: 'clinical' } },
      { code: 'ppg.fast', params: { bpm: '131' } },
      { code: 'disclaimer', params: {} },
    ];
    expect(adviceTexts(advice, ['ignored'])).toEqual([
      "Clinique n'a pas été réalisé dans ce dépistage ; son risque est inconnu, pas faible.",
      "La fréquence du pouls est rapide (131 bpm) ; si c'est au repos, consultez rapidement.",
      "Ceci est une estimation de dépistage issue d'un modèle statistique, pas un diagnostic ; elle ne remplace pas le jugement clinique.",
    ]);
    expect(adviceTexts([], ['Stored before codes existed.'])).toEqual(['Stored before codes existed.']);
    expect(adviceTexts(undefined, ['Stored.'])).toEqual(['Stored.']);
  });

  it('knows the modality of a result from its model name', () => {
    expect(modalityOfModel('ECG')).toBe('ecg');
    expect(modalityOfModel('Clinical')).toBe('clinical');
    expect(modalityOfModel('Echo')).toBeNull();
  });

  it("reads the checks' reasons in the active language, nested phrases included, as the server's reports do", async () => {
    await i18n.changeLanguage('es');
    expect(reasonText('usable: it looks like a real ECG (probability 1.00)')).toBe(
      'utilizable: parece un registro real: ECG (probabilidad 1.00)',
    );
    expect(reasonText('no repeating beat pattern: fewer than 3 heart sounds were found')).toBe(
      'ningún patrón de latidos repetido: se encontraron menos de 3 (ruidos cardíacos)',
    );
    await i18n.changeLanguage('fr');
    expect(
      reasonText(
        'too noisy: this does not look like a real pulse (PPG) recording: the share of power at 0.5-8 Hz is 3 %, where real recordings lie within 40 % to 99 % (probability of a real recording 0.02)',
      ),
    ).toBe(
      "trop de bruit : cela ne ressemble pas à un vrai enregistrement (enregistrement du pouls (PPG)) : la part de puissance à 0.5-8 Hz vaut 3 %, alors que les vrais enregistrements se situent entre 40 % et 99 % (probabilité d'un vrai enregistrement 0.02)",
    );
    expect(reasonText('something the catalogue does not know')).toBe('something the catalogue does not know');
    await i18n.changeLanguage('en');
    expect(reasonText('flat line: the signal does not vary')).toBe('flat line: the signal does not vary');
  });
});
