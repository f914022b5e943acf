import { settingsDe } from './de.js';
import { settingsEn } from './en.js';
import { settingsPl } from './pl.js';

/** The Settings page's texts of every language, for `addTexts` when its chunk loads. */
export const SETTINGS_TEXTS = { de: settingsDe, en: settingsEn, pl: settingsPl };
