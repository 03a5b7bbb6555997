// IndexedDB for jsdom tests of the offline modules: fake-indexeddb, which needs
// structuredClone, which jsdom does not expose (Node's is there; jsdom hides it).
declare const require: (id: string) => { serialize(v: unknown): unknown; deserialize(b: unknown): unknown };
const v8 = require('node:v8');
if (typeof globalThis.structuredClone !== 'function') {
  Object.assign(globalThis, { structuredClone: <T>(value: T): T => v8.deserialize(v8.serialize(value)) as T });
}
require('fake-indexeddb/auto');
export {};
