// The Drizzle schema of drizzle.mjs, read by drizzle-kit generate/push too.
import { pgTable, text } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { ulid, timeid, uid11, ulidflake, euid } from 'idtypes/drizzle';

export const events = pgTable('dz_events', {
  id: ulid('id', { generator: true }).primaryKey(),
  tid: timeid('tid', { generator: true }).notNull(),
  u11: uid11('u11', { generator: true }),
  flake: ulidflake('flake').default(sql`generate_ulidflake()`),
  eu: euid('eu', { generator: true }),
  seq: ulid('seq', { generator: 'generate_ulid_monotonic' }),
  name: text('name').notNull(),
});

export const tickets = pgTable('dz_tickets', {
  id: uid11('id', { generator: true }).primaryKey(),
  eventId: ulid('event_id').notNull().references(() => events.id),
  note: text('note'),
});
