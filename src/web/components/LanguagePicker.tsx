import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { LOCALES, type Locale, t } from '../i18n/index.js';

export interface LocaleState {
  locale: Locale;
  change: (locale: Locale) => void | Promise<void>;
}

export const LocaleContext = createContext<LocaleState>({ locale: 'en', change: () => {} });

/** Switches the language at once; language names are written in their own language (and tagged so). */
export function LanguagePicker({ id, hint }: { id: string; hint?: string }) {
  const { locale, change } = useContext(LocaleContext);
  return (
    <div class="field language">
      <label for={id}>{t('app.language')}</label>
      {hint && (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      <select
        id={id}
        value={locale}
        aria-describedby={hint ? `${id}-hint` : undefined}
        onChange={(event) => void change(event.currentTarget.value as Locale)}
      >
        {LOCALES.map((code) => (
          <option key={code} value={code} lang={code}>
            {t(`lang.${code}`)}
          </option>
        ))}
      </select>
    </div>
  );
}
