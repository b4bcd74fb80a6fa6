// idtypes/typeorm: make TypeORM accept the five ID types as column types, and find operators for
// ^@ prefixes and <@ time windows.
//
//   import { registerIdtypes, Prefix, InTimeRange } from 'idtypes/typeorm';
//   const ds = registerIdtypes(new DataSource({ type: 'postgres', ... }));   // before initialize()
//   @PrimaryColumn(idColumn('ulid', { generator: true })) id: string;   // ulid DEFAULT generate_ulid()
//   repo.findBy({ id: Prefix('01M8') }); repo.findBy({ id: InTimeRange(lo, hi, 'ulid') });
//
// Without the registration initialize() throws DataTypeNotSupportedError. Do not declare these
// columns as 'text' or 'uuid' instead: synchronize and migration:generate then see a type change
// and plan DROP COLUMN + ADD COLUMN, which loses the data.
import { Raw } from 'typeorm';
import { ID_TYPES, checkType, generatorOf, timeRangeFunctionOf } from './index.js';
import { registerTypes } from './pg.js';

/**
 * Adds the type names to the PostgreSQL driver's supported data types, and makes initialize()
 * register the types' arrays with node-postgres (idtypes/pg), so that an array column
 * ({ type: 'ulid', array: true }) reads as string[]; returns the DataSource.
 */
export function registerIdtypes(dataSource) {
  const driver = dataSource.driver;
  const kind = dataSource.options && dataSource.options.type;
  if (kind !== 'postgres' || !driver || !Array.isArray(driver.supportedDataTypes)) {
    throw new TypeError(`idtypes: registerIdtypes needs a DataSource of type 'postgres' (got ${JSON.stringify(kind)})`);
  }
  for (const t of ID_TYPES) {
    if (!driver.supportedDataTypes.includes(t)) driver.supportedDataTypes.push(t);
  }
  if (!dataSource.idtypesRegistered) {
    dataSource.idtypesRegistered = true;
    const initialize = dataSource.initialize;
    dataSource.initialize = async function () {
      await initialize.call(this);
      // The pools of the primary and of the replicas (node-postgres pg.Pool objects).
      for (const pool of [this.driver.master, ...(this.driver.slaves ?? [])]) {
        if (pool) await registerTypes(pool);
      }
      return this;
    };
  }
  return dataSource;
}

/**
 * Column options for an ID column: { type } and, with generator (true: the type's, or a
 * generator's name), the database default (default: () => 'generate_ulid()'). For
 * @Column/@PrimaryColumn or an EntitySchema column; in TypeScript, TypeORM's ColumnType does not
 * list our names, so this is how to write them.
 */
export function idColumn(type, options = {}) {
  checkType(type);
  if ('generated' in options) {
    throw new TypeError("idtypes: { generated } is now { generator: true } (or a generator's name)");
  }
  if (!options.generator) return { type };
  const call = generatorOf(type, options.generator);
  return { type, default: () => call };
}

let counter = 0;
const param = (what) => `idtypes_${what}_${++counter}`;

/** column ^@ p */
export function Prefix(p) {
  const k = param('prefix');
  return Raw((alias) => `${alias} ^@ :${k}`, { [k]: p });
}

/** column <@ <type>_time_range(tstzrange(lo, hi)); null is an open end. */
export function InTimeRange(lo, hi, type) {
  const fn = timeRangeFunctionOf(type);
  const a = param('lo');
  const b = param('hi');
  return Raw((alias) => `${alias} <@ ${fn}(tstzrange(CAST(:${a} AS timestamptz), CAST(:${b} AS timestamptz)))`, {
    [a]: lo,
    [b]: hi,
  });
}
