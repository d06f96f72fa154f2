/** The languages of the pages and reports people read: German and English. */
export const LANGUAGES = ['de', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

/**
 * An explicit choice (`?lang=`, a body field) wins; otherwise the first of the Accept-Language
 * ranges, by quality, that we speak; English when none is.
 */
export function pickLanguage(explicit: string | undefined, acceptLanguage: string | string[] | undefined): Language {
  if (explicit && isLanguage(explicit)) return explicit;
  const header = Array.isArray(acceptLanguage) ? acceptLanguage.join(',') : (acceptLanguage ?? '');
  const ranges = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { lang: tag.trim().toLowerCase().split('-')[0] ?? '', q: q === undefined ? 1 : Number(q), index };
    })
    .filter((r) => r.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return ranges.map((r) => r.lang).find(isLanguage) ?? 'en';
}

export const isLanguage = (value: string): value is Language => (LANGUAGES as readonly string[]).includes(value);

/** Locale of numbers and dates for a language, as the built-in templates use them. */
export const LOCALE: Record<Language, string> = { de: 'de-DE', en: 'en-GB' };
