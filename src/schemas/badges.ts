/** @fileoverview getBadge and getCard: the query of a public README image. */
import { Type, type Static } from '@sinclair/typebox';

const period = Type.Optional(
  Type.Union([Type.Literal('week'), Type.Literal('month'), Type.Literal('total')], { description: 'default week' }),
);
const metric = Type.Optional(
  Type.Union([Type.Literal('all'), Type.Literal('gpt'), Type.Literal('claude'), Type.Literal('other')], {
    description: 'default all',
  }),
);

export const BadgeParams = Type.Object({ file: Type.String({ maxLength: 100, description: '<user_id>.svg' }) });
export const BadgeQuery = Type.Object({ period, metric });
export const CardQuery = Type.Object({
  period,
  metric,
  theme: Type.Optional(Type.Union([Type.Literal('light'), Type.Literal('dark')], { description: 'default light' })),
});
export type CardQuery = Static<typeof CardQuery>;
