// Harness start-up: fake Foundry globals first, then the real module, then Foundry's init and ready.
// Query parameters: bridge (websocket URL), token (the bridge's access token), user=player to log
// in as the player who owns Sgt. Hale instead of the referee.
import "./foundry-fake.js";

const params = new URLSearchParams(location.search);
if (params.get("user") === "player") harness.actAs("pl0000000000000b");
try {
  await import("/modules/volley/scripts/volley.js");
  Hooks.callAll("init");
  // The referee pasted the URL and the token into the module settings (client-scoped token).
  await game.settings.set("volley", "bridgeUrl", params.get("bridge") ?? "ws://127.0.0.1:8765/ws");
  if (params.has("token")) await game.settings.set("volley", "token", params.get("token"));
  Hooks.callAll("ready");
  harness.target("tokRaider0000002", "tokLookout000003");
  harness.render();
  harness.ready = true;
} catch (error) {
  harness.bootError = String(error?.stack ?? error);
  throw error;
}
