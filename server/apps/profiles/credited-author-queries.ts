import type { Knex } from 'knex';

/**
 * Joins the member who made a row (a photo, an entry) as `profiles as <alias>` on `column`,
 * only while their account is active: an account closed for deletion is credited nowhere
 * during its undo window (its name and avatar come back null), and again once restored.
 * Every query that credits a member goes through here, so none can forget the condition.
 */
export function joinCreditedAuthor(qb: Knex.QueryBuilder, alias: string, column: string): Knex.QueryBuilder {
  return qb.leftJoin(`profiles as ${alias}`, (on) => on.on(`${alias}.id`, '=', column).andOnVal(`${alias}.is_active`, '=', true));
}
