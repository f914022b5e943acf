/** Text helpers shared by server and web app. */

/** Length in code points, so an emoji counts as the one character a user sees (limits in common/limits.ts). */
export function codePointLength(text: string): number {
  let length = 0;
  for (const _ of text) length++;
  return length;
}
