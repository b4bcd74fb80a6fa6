// TypeORM with idtypes/typeorm: without registerIdtypes() initialize() refuses the types; with
// it synchronize creates them and a second schema sync plans nothing; a column declared text
// over a ulid plans DROP COLUMN (the hazard the docs warn of). save() returns the generated ids,
// findOneBy a string id, Prefix() and InTimeRange() (index scans), a many-to-one join, Like()
// (through LIKE on the ID types, where the server has it).
import 'reflect-metadata';
import { DataSource, EntitySchema, Like } from 'typeorm';
import { registerIdtypes, Prefix, InTimeRange } from 'idtypes/typeorm';
import { check, checkThrows, run, connection, ULID_RE, sameSet, W_LO, W_HI, seed, truth, plan, usesIndex, hasLike } from './common.mjs';

const entities = (idType) => [
  new EntitySchema({
    name: 'Event',
    tableName: 'to_events',
    columns: {
      id: { type: idType, primary: true, default: () => 'generate_ulid()' },
      tid: { type: 'timeid', default: () => 'generate_tid()' },
      u11: { type: 'uid11', default: () => 'generate_uid11()' },
      flake: { type: 'ulidflake', default: () => 'generate_ulidflake()' },
      eu: { type: 'euid', default: () => 'generate_euid()' },
      name: { type: 'text' },
    },
    relations: { tickets: { type: 'one-to-many', target: 'Ticket', inverseSide: 'event' } },
  }),
  new EntitySchema({
    name: 'Ticket',
    tableName: 'to_tickets',
    columns: {
      id: { type: 'uid11', primary: true, default: () => 'generate_uid11()' },
      note: { type: 'text', nullable: true },
    },
    relations: { event: { type: 'many-to-one', target: 'Event', joinColumn: { name: 'event_id' }, nullable: false } },
  }),
];
const c = connection();
const source = (idType = 'ulid') => new DataSource({ type: 'postgres', host: c.host, port: c.port, username: c.user, database: c.database, entities: entities(idType) });
const pending = async (ds) => (await ds.driver.createSchemaBuilder().log()).upQueries.map((q) => q.query);

run(async () => {
  await checkThrows('without registerIdtypes, initialize() refuses the type', () => source().initialize(),
    /Data type "ulid" in "Event.id" is not supported by "postgres" database/);

  const ds = registerIdtypes(source());
  await ds.initialize();
  await ds.synchronize();
  const types = await ds.query(`SELECT table_name || '.' || column_name || ' ' || udt_name AS t FROM information_schema.columns
    WHERE table_name IN ('to_events', 'to_tickets') AND udt_name <> 'text' ORDER BY 1`);
  check('synchronize made the columns our types', types.map((x) => x.t).join(', ') ===
    'to_events.eu euid, to_events.flake ulidflake, to_events.id ulid, to_events.tid timeid, to_events.u11 uid11, to_tickets.event_id ulid, to_tickets.id uid11',
    types.map((x) => x.t).join(', '));
  const again = await pending(ds);
  check('a second synchronize plans no change', again.length === 0, again.join('; '));

  // The hazard: the same entity with id declared text.
  const wrong = registerIdtypes(source('text'));
  await wrong.initialize();
  const plans = await pending(wrong);
  check('declared text over a ulid column, synchronize would DROP COLUMN "id"', plans.some((s) => /DROP COLUMN "id"/.test(s)), plans.join('; '));
  await wrong.destroy();

  const events = ds.getRepository('Event');
  const saved = await events.save({ name: 'launch' });
  check('save() returns the generated ULID id (a string)', typeof saved.id === 'string' && ULID_RE.test(saved.id), JSON.stringify(saved));
  check('save() returns the other generated columns', [saved.tid, saved.u11, saved.flake, saved.eu].every((v) => typeof v === 'string' && v.length > 0), JSON.stringify(saved));
  const got = await events.findOneBy({ id: saved.id });
  check('findOneBy a string id', got && got.name === 'launch' && got.tid === saved.tid, JSON.stringify(got));

  const ticket = await ds.getRepository('Ticket').save({ note: 'front row', event: { id: saved.id } });
  const withTickets = await events.findOne({ where: { id: saved.id }, relations: { tickets: true } });
  check('a many-to-one on the ulid id joins', withTickets?.tickets?.length === 1 && withTickets.tickets[0].id === ticket.id, JSON.stringify(withTickets));

  await seed('to_events');
  const want = await truth('to_events', `id <@ ulid_time_range(tstzrange($1, $2))`, [W_LO, W_HI]);
  const win = (await events.findBy({ id: InTimeRange(W_LO, W_HI, 'ulid') })).map((x) => x.id);
  check(`InTimeRange: the ${want.length} rows of the window`, want.length === 24 && sameSet(win, want), `${win.length} rows`);
  let [sql, params] = events.createQueryBuilder().where({ id: InTimeRange(W_LO, W_HI, 'ulid') }).getQueryAndParameters();
  let p = await plan(sql, params);
  check('InTimeRange is an index scan', usesIndex(p), p);

  const pre = want[0].slice(0, 5);
  const wantPre = await truth('to_events', `id::text LIKE $1`, [pre + '%']);
  const variants = [[`Prefix('${pre}')`, () => Prefix(pre)]];
  if (await hasLike()) variants.push([`Like('${pre}%')`, () => Like(pre + '%')]);
  else console.log('note: Like() not checked: this server has no LIKE on the ID types');
  for (const [what, op] of variants) {
    const ids = (await events.findBy({ id: op() })).map((x) => x.id);
    check(`${what}: the ${wantPre.length} rows whose text starts with it`, wantPre.length > 0 && sameSet(ids, wantPre), `${ids.length} rows`);
    [sql, params] = events.createQueryBuilder().where({ id: op() }).getQueryAndParameters();
    p = await plan(sql, params);
    check(`${what} is an index scan`, usesIndex(p), p);
  }
  await ds.destroy();
});
