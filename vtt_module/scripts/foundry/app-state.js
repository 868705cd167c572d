/**
 * Where a window is in Foundry v13's life cycle, for the checks Volley makes before it re-draws one.
 *
 * v13's ApplicationV2 says `rendered` only while its state is RENDERED: during any render (a part
 * re-drawn after a token changed, the odds arriving) the state is RENDERING and `rendered` is false,
 * and while the window closes (its animation) it is CLOSING. A re-render asked "if rendered" is
 * therefore dropped whenever another render happens to be under way, and the window keeps showing
 * stale rounds or a preview that never draws. The checks that mean "is this window open" ask
 * `isShowing` instead: rendering or rendered, not closing or closed. A render asked then waits its turn
 * in the application's own queue (render and close share one), so it draws after the one under way.
 */

/** v13 `ApplicationV2.RENDER_STATES` (client/applications/api/application.mjs). */
const STATES = Object.freeze({ RENDERING: 1, RENDERED: 2 });

/**
 * Whether `app` is on screen or being drawn: a re-render asked now will draw.
 * @param {{state?: number, constructor: any}} app
 */
export function isShowing(app) {
  const states = app.constructor?.RENDER_STATES ?? STATES;
  return app.state === states.RENDERING || app.state === states.RENDERED;
}
