import type { Express } from 'express';
import { createMember, memberAgent, type Agent, type TestContext } from './test-app';

// Test helpers the saving apps' tests share (favourites, to-dos, ratings, bookmarks, account deletion).

/** A new member and an agent signed in as them (on another app of the same database, if given). */
export async function signedIn(t: TestContext, app: Express = t.app): Promise<{ id: number; agent: Agent }> {
  const member = await createMember(t.ctx);
  return { id: member.id, agent: await memberAgent({ app, ctx: t.ctx }, member) };
}

/** An unsafe request with the CSRF header set. */
export function send(agent: Agent, method: 'post' | 'patch' | 'delete', path: string, body?: unknown) {
  const req = agent[method](path).set('X-CSRFToken', agent.csrfToken);
  return body === undefined ? req : req.send(body as object);
}
