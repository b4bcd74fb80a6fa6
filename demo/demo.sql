-- demo.sql: what `make demo` shows, on a throwaway cluster.
CREATE EXTENSION idtypes;
SELECT extname, extversion FROM pg_extension WHERE extname = 'idtypes';
