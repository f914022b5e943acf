import type { SettingsMessages } from '../types.js';

/** The Settings page's texts in German; keys as in en.ts beside this file. */
export const settingsDe: SettingsMessages = {
  'settings.title': 'Einstellungen',
  'settings.account': 'Angemeldet als {email}',
  'settings.profile': 'Profil',
  'settings.name': 'Anzeigename',
  'settings.saveName': 'Namen speichern',
  'settings.languageHint': 'Die Seite wechselt sofort; deine Wahl wird gespeichert.',
  'settings.password': 'Passwort ändern',
  'settings.oldPassword': 'Aktuelles Passwort',
  'settings.newPassword': 'Neues Passwort',
  'settings.savePassword': 'Passwort ändern',
  'settings.passwordSaved': 'Passwort geändert. Deine anderen Geräte wurden abgemeldet.',
  'settings.data': 'Deine Daten',
  'settings.dataIntro':
    'Lade alles herunter, was Steady über deine Ziele speichert: eine vollständige Datei, die sich wieder importieren lässt, oder eine Tabelle mit einer Zeile pro eingetragener Menge.',
  'settings.exportJson': 'Alle Daten herunterladen (JSON)',
  'settings.exportCsv': 'Tabelle herunterladen (CSV)',
  'settings.importIntro':
    'Hol Ziele aus einem Steady-Export (JSON) zurück. Sie kommen nach deinen eigenen Zielen, mit ihren Mengen, ihrer Reihenfolge, ihrem Archiv und ihren Erinnerungen.',
  'settings.importFile': 'Exportdatei (JSON)',
  'settings.import': 'Ziele importieren',
  'settings.imported': { one: '# Ziel importiert.', other: '# Ziele importiert.' },
  'settings.importWhere': 'Der erste ungültige Wert steht bei {field}.',
  'settings.importWhereGoal':
    'Der erste ungültige Wert gehört zum {number}. Ziel der Datei („{name}“), Feld „{field}“.',
  'settings.importWhereDay': 'Der erste ungültige Wert gehört zum {number}. Ziel der Datei („{name}“), Tag {date}.',
  'settings.importSets': 'Eingetragene Mengen',
  'settings.importTooLarge': 'Dieses Ziel hat mehr eingetragene Mengen, als Steady für ein Ziel speichert.',
  'settings.importNewer': 'Diese Datei stammt aus einer neueren Steady-Version.',
  'settings.delete': 'Konto löschen',
  'settings.deleteWarning':
    'Wenn du dein Konto löschst, werden deine Ziele, alles Eingetragene und deine Einladungen entfernt, und du wirst auf allen Geräten abgemeldet. Das lässt sich nicht rückgängig machen.',
  'settings.deleteExportFirst': 'Falls du deine Daten später noch brauchst, lade sie vorher herunter:',
  'settings.deletePassword': 'Dein Passwort',
  'settings.deleteConfirm': 'Das Konto {email} und alle seine Daten wirklich löschen?',
  'settings.deleteYes': 'Ja, mein Konto löschen',
  'settings.deleted': 'Dein Konto wurde gelöscht.',
  'settings.sessions': 'Geräte',
  'settings.sessionsHint': 'Auf allen anderen Geräten und Browsern abmelden; dieses bleibt angemeldet.',
  'settings.logoutOthers': 'Überall sonst abmelden',
  'settings.logoutOthersDone': 'Alle anderen Geräte wurden abgemeldet.',
  'settings.timezone': 'Zeitzone',
  'settings.timezoneHint': 'Erinnerungen kommen zu ihrer Uhrzeit in dieser Zone.',
  'settings.timezoneCurrent': 'Deine Zeitzone: {zone}',
  'settings.timezoneNone': 'noch nicht festgelegt',
  'settings.timezoneUseDevice': 'Zeitzone dieses Geräts verwenden ({zone})',
  'settings.timezoneSaved': 'Zeitzone gespeichert.',
  'settings.importEmpty': 'Diese Datei ist leer.',
  'settings.importNotUtf8':
    'Diese Datei ist nicht als UTF-8 gespeichert, wie Steady seine Exporte schreibt, daher lassen sich manche Zeichen nicht lesen. Speichere sie als UTF-8 und wähle sie erneut.',
};
