/**
 * The Settings page's English texts, the reference for de.ts and pl.ts beside it. They load with the page's chunk,
 * not with the start: the start's JavaScript has a budget and few visits open Settings (decision 0192).
 */
export const settingsEn = {
  'settings.title': 'Settings',
  'settings.account': 'Logged in as {email}',
  'settings.profile': 'Profile',
  'settings.name': 'Display name',
  'settings.saveName': 'Save name',
  'settings.languageHint': 'The page changes at once; your choice is saved.',
  'settings.password': 'Change password',
  'settings.oldPassword': 'Current password',
  'settings.newPassword': 'New password',
  'settings.savePassword': 'Change password',
  'settings.passwordSaved': 'Password changed. Your other devices have been logged out.',
  'settings.data': 'Your data',
  'settings.dataIntro':
    'Download everything Steady keeps about your goals: a complete file that can be imported again, or a spreadsheet with one row per logged amount.',
  'settings.exportJson': 'Download all data (JSON)',
  'settings.exportCsv': 'Download spreadsheet (CSV)',
  'settings.importIntro':
    'Bring back goals from a Steady export (JSON). They are added after your own goals, with their amounts, order, archive and reminders.',
  'settings.importFile': 'Export file (JSON)',
  'settings.import': 'Import goals',
  'settings.imported': { one: '# goal imported.', other: '# goals imported.' },
  'settings.importWhere': 'The first value that is not valid is at {field}.',
  'settings.importWhereGoal':
    'The first value that is not valid belongs to goal {number} in the file (“{name}”), field “{field}”.',
  'settings.importWhereDay':
    'The first value that is not valid belongs to goal {number} in the file (“{name}”), day {date}.',
  'settings.importSets': 'Logged amounts',
  'settings.importTooLarge': 'This goal has more logged amounts than Steady keeps for one goal.',
  'settings.importNewer': 'This file comes from a newer version of Steady.',
  'settings.delete': 'Delete account',
  'settings.deleteWarning':
    'Deleting your account removes your goals, everything you logged and your invites, and logs you out on every device. This cannot be undone.',
  'settings.deleteExportFirst': 'If you may want your data later, download it first:',
  'settings.deletePassword': 'Your password',
  'settings.deleteConfirm': 'Really delete the account {email} and all its data?',
  'settings.deleteYes': 'Yes, delete my account',
  'settings.deleted': 'Your account has been deleted.',
  'settings.sessions': 'Devices',
  'settings.sessionsHint': 'Log out on every other device and browser; this one stays logged in.',
  'settings.logoutOthers': 'Log out everywhere else',
  'settings.logoutOthersDone': 'All other devices have been logged out.',
  'settings.timezone': 'Time zone',
  'settings.timezoneHint': 'Reminders come at their time in this zone.',
  'settings.timezoneCurrent': 'Your time zone: {zone}',
  'settings.timezoneNone': 'not set yet',
  'settings.timezoneUseDevice': "Use this device's time zone ({zone})",
  'settings.timezoneSaved': 'Time zone saved.',
  'settings.importEmpty': 'This file is empty.',
  'settings.importNotUtf8':
    'This file is not saved as UTF-8, as Steady writes its exports, so some of its characters cannot be read. Save it as UTF-8 and choose it again.',
} as const;
