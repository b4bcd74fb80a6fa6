// Sequelize as it stands (no helper): type 'ULID' etc. pass through to DDL, sync() creates the
// columns and the defaults, create() returns the generated id, findByPk a string id, ^@ and <@ by
// where(col, op, ...) / literal() (index scans), belongsTo joins, Op.startsWith (through LIKE on
// the ID types, where the server has it).
import { Sequelize, DataTypes, Op, literal, where, col } from 'sequelize';
import { check, run, connection, ULID_RE, sameSet, W_LO, W_HI, seed, truth, plan, usesIndex, hasLike } from './common.mjs';

run(async () => {
  const c = connection();
  let last = '';
  const seq = new Sequelize(c.database, c.user, '', {
    dialect: 'postgres', host: c.host, port: c.port, logging: (s) => { last = s.replace(/^Executing \([^)]*\): /, ''); },
  });
  const Event = seq.define('Event', {
    id: { type: 'ULID', primaryKey: true, defaultValue: literal('generate_ulid()') },
    tid: { type: 'TIMEID', allowNull: false, defaultValue: literal('generate_tid()') },
    name: { type: DataTypes.TEXT, allowNull: false },
  }, { tableName: 'sq_events', timestamps: false });
  const Ticket = seq.define('Ticket', {
    id: { type: 'UID11', primaryKey: true, defaultValue: literal('generate_uid11()') },
    note: DataTypes.TEXT,
  }, { tableName: 'sq_tickets', timestamps: false });
  Ticket.belongsTo(Event, { foreignKey: { name: 'eventId', field: 'event_id', type: 'ULID', allowNull: false } });
  await seq.sync();
  const types = await seq.query(`SELECT table_name || '.' || column_name || ' ' || udt_name AS t FROM information_schema.columns
    WHERE table_name IN ('sq_events', 'sq_tickets') AND udt_name <> 'text' ORDER BY 1`, { type: 'SELECT' });
  check('sync() made the columns our types', types.map((x) => x.t).join(', ') ===
    'sq_events.id ulid, sq_events.tid timeid, sq_tickets.event_id ulid, sq_tickets.id uid11', types.map((x) => x.t).join(', '));

  const e = await Event.create({ name: 'launch' });
  check('create() returns the generated ULID id (a string)', typeof e.id === 'string' && ULID_RE.test(e.id) && typeof e.tid === 'string', JSON.stringify(e));
  const got = await Event.findByPk(e.id);
  check('findByPk a string id', got?.name === 'launch', JSON.stringify(got));
  const t = await Ticket.create({ eventId: e.id, note: 'front row' });
  const joined = await Ticket.findAll({ include: Event, where: { eventId: e.id } });
  check('belongsTo the ulid id joins', joined.length === 1 && joined[0].id === t.id && joined[0].Event?.name === 'launch', JSON.stringify(joined));

  await seed('sq_events');
  const want = await truth('sq_events', `id <@ ulid_time_range(tstzrange($1, $2))`, [W_LO, W_HI]);
  const win = (await Event.findAll({ where: literal(`"Event"."id" <@ ulid_time_range(tstzrange(:lo, :hi))`), replacements: { lo: W_LO.toISOString(), hi: W_HI.toISOString() } })).map((x) => x.id);
  check(`a window by literal(): the ${want.length} rows`, want.length === 24 && sameSet(win, want), `${win.length} rows`);
  let p = await plan(last);
  check('the window is an index scan', usesIndex(p), p);

  const pre = want[0].slice(0, 5);
  const wantPre = await truth('sq_events', `id::text LIKE $1`, [pre + '%']);
  const variants = [[`where(col('id'), '^@', '${pre}')`, where(col('Event.id'), '^@', pre)]];
  if (await hasLike()) variants.push([`{ [Op.startsWith]: '${pre}' }`, { id: { [Op.startsWith]: pre } }]);
  else console.log('note: Op.startsWith not checked: this server has no LIKE on the ID types');
  for (const [what, cond] of variants) {
    const ids = (await Event.findAll({ where: cond })).map((x) => x.id);
    check(`${what}: the ${wantPre.length} rows whose text starts with it`, wantPre.length > 0 && sameSet(ids, wantPre), `${ids.length} rows`);
    p = await plan(last);
    check(`${what} is an index scan`, usesIndex(p), p);
  }
  await seq.close();
});
