// negotiator 1.x (the package ships no types; @types/negotiator describes 0.6, without the
// `preferred` option that breaks ties in q by the server's order).
declare module 'negotiator' {
  export default class Negotiator {
    constructor(request: { headers: Record<string, string | string[] | undefined> });
    encoding(available?: readonly string[], options?: { preferred?: readonly string[] }): string | undefined;
  }
}
