// Dashboard → Your data (issue 16): where a member downloads everything kept about them, and
// where they can delete their account. The server's route and the dashboard's panel both read
// these, so the link cannot point somewhere the server does not answer.

export const MEMBER_EXPORT_PATH = '/accounts/dashboard/export.zip';
export const ACCOUNT_DELETE_PATH = '/accounts/delete/';

/** What the ZIP holds, as the panel tells the member (README.txt inside lists every file). */
export const MEMBER_EXPORT_CONTENTS = [
  'your profile and newsletter choices',
  'favourites, to-dos, ratings and saved articles, videos and events, with their names and links',
  'the photos you uploaded, with their image files',
  'the events you submitted, the calendar feeds you added and the contests you entered',
  'your recent sign-ins (time, address, browser)',
  'messages you sent us while signed in',
] as const;
