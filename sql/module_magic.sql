-- PostgreSQL 18+: the library's magic block names the module and its version.
SELECT idtypes_version();
SELECT module_name, version FROM pg_get_loaded_modules() WHERE file_name LIKE 'idtypes%';
