import type { AppContext } from '../../server/context';

/** Seeds the demo city into an empty database (filled in by the seed work). */
export async function seedDemoIfEmpty(ctx: AppContext): Promise<void> {
  const row = await ctx.db('neighbourhoods').count<{ n: number }[]>({ n: '*' }).first();
  if (Number(row?.n ?? 0) > 0) return;
  ctx.logger.warn('the demo seed is not written yet: the database stays empty');
}
