// idtypes/pg: node-postgres (pg) parsers for the ID types' arrays.
//
//   import pg from 'pg';
//   import { registerTypes } from 'idtypes/pg';
//   const client = new pg.Client(); await client.connect(); await registerTypes(client);
//   const pool = new pg.Pool(); await registerTypes(pool);   // before the pool's first query
//   (await client.query('SELECT ARRAY[generate_ulid()] AS ids')).rows[0].ids   // ['01M8...']
//
// Without it node-postgres reads an ID as a string already but an array of IDs (ulid[] ...) as
// its text, '{01M8...,01M8...}'. node-postgres reads text format (the ID types' binary format is
// their 8 or 16 bytes, which it would return as a Buffer): only text is handled.
import { ID_TYPES } from './index.js';

// (typname, oid, array oid) of the five types, wherever the extension was created.
const TYPES_QUERY = `SELECT t.typname::text AS typname, t.oid::int AS oid, t.typarray::int AS typarray
  FROM pg_catalog.pg_type t
  JOIN pg_catalog.pg_depend d ON d.classid = 'pg_catalog.pg_type'::pg_catalog.regclass AND d.objid = t.oid AND d.deptype = 'e'
  JOIN pg_catalog.pg_extension e ON e.oid = d.refobjid AND e.extname = 'idtypes'
  WHERE t.typname = ANY($1::text[])`;

/**
 * An array of IDs from its text: '{A,NULL,B}' is ['A', null, 'B'], '{{A,B},{C,D}}' nests, '{}' is
 * []. The symbols of an ID never need quoting; a '[1:2]=' dimension decoration is skipped.
 */
export function parseIdArray(text) {
  if (text === null || text === undefined) return null;
  let i = text[0] === '[' ? text.indexOf('=') + 1 : 0;
  const list = () => {
    const out = [];
    i++; // '{'
    if (text[i] === '}') {
      i++;
      return out;
    }
    for (;;) {
      if (text[i] === '{') {
        out.push(list());
      } else {
        let j = i;
        while (text[j] !== ',' && text[j] !== '}') j++;
        const s = text.slice(i, j);
        out.push(s === 'NULL' ? null : s);
        i = j;
      }
      if (text[i++] === '}') return out;
    }
  };
  return list();
}

const identity = (text) => text;

function apply(client, rows) {
  for (const { oid, typarray } of rows) {
    client.setTypeParser(oid, 'text', identity);
    client.setTypeParser(typarray, 'text', parseIdArray);
  }
}

/**
 * Registers the ID types and their arrays with a pg.Client (or a client of a pool), or with
 * every client of a pg.Pool: the ones it has and the ones it connects later. Returns the rows
 * { typname, oid, typarray } found (none where the extension is not created).
 */
export async function registerTypes(clientOrPool) {
  const target = clientOrPool;
  if (typeof target.setTypeParser === 'function') {
    const { rows } = await target.query(TYPES_QUERY, [ID_TYPES]);
    apply(target, rows);
    return rows;
  }
  if (typeof target.connect !== 'function' || typeof target.on !== 'function') {
    throw new TypeError('idtypes: registerTypes takes a pg.Client or a pg.Pool');
  }
  const client = await target.connect();
  let rows;
  try {
    ({ rows } = await client.query(TYPES_QUERY, [ID_TYPES]));
  } finally {
    client.release();
  }
  // pg-pool emits 'connect' for each new client before it runs a query.
  target.on('connect', (c) => apply(c, rows));
  // The clients the pool has already (pg-pool's list of them).
  for (const c of target._clients ?? [client]) apply(c, rows);
  return rows;
}
