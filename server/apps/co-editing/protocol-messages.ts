import * as decoding from 'lib0/decoding';

// What the server reads of a Hocuspocus message before it is applied (live-server.ts): the Yjs
// update a sync message carries, and the states an awareness message sets. A message is
// `[document name][type]…`; sync messages (types 0 and 4) are y-protocols' `[step][payload]`,
// awareness messages (type 1) y-protocols' `[count]([client][clock][state JSON])*`.

const MESSAGE = { sync: 0, awareness: 1, syncReply: 4 } as const;
const SYNC = { step1: 0, step2: 1, update: 2 } as const;

/** An awareness state larger than this is refused (a name, a colour and a selection are under 1 KB). */
const AWARENESS_STATE_MAX = 4_096;

/** The Yjs update a sync message would apply (step 2 or an update), or null for any other message. */
export function syncUpdateOf(message: Uint8Array): Uint8Array | null {
  try {
    const d = decoding.createDecoder(message);
    decoding.readVarString(d);
    const type = decoding.readVarUint(d);
    if (type !== MESSAGE.sync && type !== MESSAGE.syncReply) return null;
    const step = decoding.readVarUint(d);
    if (step !== SYNC.step2 && step !== SYNC.update) return null;
    return decoding.readVarUint8Array(d);
  } catch {
    // Unreadable: Hocuspocus refuses it itself.
    return null;
  }
}

/**
 * Why an awareness message may not be relayed, or null: each state it sets must be small and
 * name the signed-in member (`user.name`), so nobody shows their caret under another's name.
 */
export function refusedAwareness(message: Uint8Array, name: string): string | null {
  let d: decoding.Decoder;
  try {
    d = decoding.createDecoder(message);
    decoding.readVarString(d);
    if (decoding.readVarUint(d) !== MESSAGE.awareness) return null;
  } catch {
    return null;
  }
  try {
    const update = decoding.createDecoder(decoding.readVarUint8Array(d));
    const count = decoding.readVarUint(update);
    for (let i = 0; i < count; i++) {
      decoding.readVarUint(update); // client
      decoding.readVarUint(update); // clock
      const json = decoding.readVarString(update);
      if (json.length > AWARENESS_STATE_MAX) return 'an awareness state too large';
      const state = JSON.parse(json) as { user?: { name?: unknown } } | null;
      if (state === null) continue; // the client left
      if (state.user !== undefined && state.user?.name !== name) return 'an awareness state under another name';
    }
    return null;
  } catch {
    return 'an unreadable awareness message';
  }
}
