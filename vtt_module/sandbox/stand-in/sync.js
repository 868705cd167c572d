// The channel between the sandbox's pages (TEST STAND-IN, NOT FOUNDRY). Where Foundry's server relays a
// document change to the other clients, a page posts its change here (`postChange`) and every other page
// applies it again with `fromSync` (`connectWorld`), the documents checking the claimed user's rights
// once more. Besides changes it carries what is not a document: a world setting, the scene shown, who
// is connected, a reset. The document classes are documents.js, the world they live in world.js.

/** The sandbox's one channel: every page of the same origin hears every other. */
const db = new BroadcastChannel("volley-sandbox-db");

/** Tell the other pages about a change (they apply it with `fromSync`). */
export function postChange(message) {
  db.postMessage(message);
}

function findToken(world, key) {
  const [sceneId, tokenId] = String(key).split("/");
  return world.scenes.get(sceneId)?.tokens.get(tokenId) ?? null;
}

/** An actor by how pages name it: a world actor by id, a synthetic one by its token. */
function findActor(world, kind, id) {
  if (kind === "ActorDelta") return findToken(world, id)?.actor ?? null;
  return world.actors.get(id) ?? null;
}

function findDocument(world, kind, id) {
  switch (kind) {
    case "Actor":
    case "ActorDelta":
      return findActor(world, kind, id);
    case "Item": {
      const [parent, itemId] = String(id).split("|");
      const [parentKind, parentId] = parent.split(":");
      return findActor(world, parentKind, parentId)?.items.get(itemId) ?? null;
    }
    case "User":
      return world.users.get(id);
    case "ChatMessage":
      return world.messages.get(id);
    case "Combat":
      return world.combats?.get(id) ?? null;
    case "Token":
      return findToken(world, id);
    default:
      return null;
  }
}

/**
 * Listen to the other pages. `onSetting` applies a world setting; `onScene` shows a scene; `onPresence`
 * hears who is connected. Changes are checked again here against the rights of the user who sent them.
 */
export function connectWorld(world, { onSetting, onScene, onPresence, onReset, createMessage, deleteMessage }) {
  const queue = [];
  let ready = false;
  const handle = async (data) => {
    const remote = { fromSync: true, userId: data.userId };
    switch (data.op) {
      case "update": {
        const doc = findDocument(world, data.doc, data.id);
        if (doc) await doc._update(data.changes, data.options ?? {}, remote);
        break;
      }
      case "status": {
        const actor = findActor(world, data.doc, data.id);
        if (actor) await actor._toggleStatus(data.status, data.active, remote).catch(() => {});
        break;
      }
      case "createItems":
        await findActor(world, data.doc, data.id)?._createItems(data.data, {}, remote);
        break;
      case "deleteItems":
        await findActor(world, data.doc, data.id)?._deleteItems(data.ids, {}, remote);
        break;
      case "create":
        await createMessage(data.data, {}, remote);
        break;
      case "delete":
        await deleteMessage(data.id, {}, remote);
        break;
      case "setting":
        onSetting(data.key, data.value, data.userId);
        break;
      default:
    }
  };
  db.onmessage = ({ data }) => {
    // Presence, scenes and resets are not documents: they need no world loaded.
    if (["hello", "bye", "presence?"].includes(data.op)) return onPresence(data);
    if (data.op === "scene") return onScene(data.id);
    if (data.op === "reset") return onReset();
    if (!ready) queue.push(data);
    else void handle(data);
  };
  return {
    /** The world is loaded: apply what other pages changed meanwhile (applying twice is harmless). */
    async start() {
      ready = true;
      for (const data of queue.splice(0)) await handle(data);
    },
    broadcastSetting: (key, value, userId) => db.postMessage({ op: "setting", key, value, userId }),
    broadcastScene: (id) => db.postMessage({ op: "scene", id }),
    post: (message) => db.postMessage(message),
  };
}

export { findActor, findToken };
