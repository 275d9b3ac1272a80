/**
 * Full-page navigation to a server route (sign-in leaves the SPA). Kept behind a function so
 * tests can observe it: jsdom's window.location cannot be spied on.
 */
export function goToExternal(url: string): void {
  window.location.assign(url);
}
