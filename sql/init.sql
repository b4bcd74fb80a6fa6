CREATE EXTENSION idtypes;
SELECT idtypes_version();
