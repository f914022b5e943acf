import type { SettingsMessages } from '../types.js';

/** The Settings page's texts in Polish; keys as in en.ts beside this file. */
export const settingsPl: SettingsMessages = {
  'settings.title': 'Ustawienia',
  'settings.account': 'Zalogowano jako {email}',
  'settings.profile': 'Profil',
  'settings.name': 'Wyświetlana nazwa',
  'settings.saveName': 'Zapisz nazwę',
  'settings.languageHint': 'Strona zmienia się od razu; wybór zostaje zapisany.',
  'settings.password': 'Zmień hasło',
  'settings.oldPassword': 'Obecne hasło',
  'settings.newPassword': 'Nowe hasło',
  'settings.savePassword': 'Zmień hasło',
  'settings.passwordSaved': 'Hasło zmienione. Inne urządzenia zostały wylogowane.',
  'settings.data': 'Twoje dane',
  'settings.dataIntro':
    'Pobierz wszystko, co Steady przechowuje o Twoich celach: pełny plik, który można ponownie zaimportować, albo arkusz z jednym wierszem na każdą zapisaną ilość.',
  'settings.exportJson': 'Pobierz wszystkie dane (JSON)',
  'settings.exportCsv': 'Pobierz arkusz (CSV)',
  'settings.importIntro':
    'Przywróć cele z eksportu Steady (JSON). Zostaną dodane po Twoich celach, z ilościami, kolejnością, archiwum i przypomnieniami.',
  'settings.importFile': 'Plik eksportu (JSON)',
  'settings.import': 'Importuj cele',
  'settings.imported': {
    one: 'Zaimportowano # cel.',
    few: 'Zaimportowano # cele.',
    many: 'Zaimportowano # celów.',
    other: 'Zaimportowano # celu.',
  },
  'settings.importWhere': 'Pierwsza nieprawidłowa wartość jest w {field}.',
  'settings.importWhereGoal':
    'Pierwsza nieprawidłowa wartość należy do celu nr {number} w pliku („{name}”), pole „{field}”.',
  'settings.importWhereDay':
    'Pierwsza nieprawidłowa wartość należy do celu nr {number} w pliku („{name}”), dzień {date}.',
  'settings.importSets': 'Zapisane ilości',
  'settings.importTooLarge': 'Ten cel ma więcej zapisanych ilości, niż Steady przechowuje dla jednego celu.',
  'settings.importNewer': 'Ten plik pochodzi z nowszej wersji Steady.',
  'settings.delete': 'Usuń konto',
  'settings.deleteWarning':
    'Usunięcie konta usuwa Twoje cele, wszystkie wpisy i zaproszenia oraz wylogowuje Cię na wszystkich urządzeniach. Tego nie można cofnąć.',
  'settings.deleteExportFirst': 'Jeśli Twoje dane mogą Ci się jeszcze przydać, najpierw je pobierz:',
  'settings.deletePassword': 'Twoje hasło',
  'settings.deleteConfirm': 'Na pewno usunąć konto {email} i wszystkie jego dane?',
  'settings.deleteYes': 'Tak, usuń moje konto',
  'settings.deleted': 'Twoje konto zostało usunięte.',
  'settings.sessions': 'Urządzenia',
  'settings.sessionsHint': 'Wyloguj się na wszystkich innych urządzeniach i przeglądarkach; to pozostanie zalogowane.',
  'settings.logoutOthers': 'Wyloguj wszędzie indziej',
  'settings.logoutOthersDone': 'Wszystkie inne urządzenia zostały wylogowane.',
  'settings.timezone': 'Strefa czasowa',
  'settings.timezoneHint': 'Przypomnienia przychodzą o swojej godzinie w tej strefie.',
  'settings.timezoneCurrent': 'Twoja strefa czasowa: {zone}',
  'settings.timezoneNone': 'jeszcze nie ustawiona',
  'settings.timezoneUseDevice': 'Użyj strefy tego urządzenia ({zone})',
  'settings.timezoneSaved': 'Strefa czasowa zapisana.',
  'settings.importEmpty': 'Ten plik jest pusty.',
  'settings.importNotUtf8':
    'Ten plik nie jest zapisany w UTF-8, jak Steady zapisuje eksporty, więc części znaków nie da się odczytać. Wystarczy zapisać go w UTF-8 i wybrać ponownie.',
};
