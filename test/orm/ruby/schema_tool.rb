# schema.rb of the database of PGHOST, PGPORT, PGUSER and PGDATABASE, with the recipe of
# docs/orms.md loaded, as `rails db:schema:dump` and `db:schema:load` make and read it:
#   ruby schema_tool.rb <recipe.rb> dump          the schema.rb on stdout
#   ruby schema_tool.rb <recipe.rb> load <file>   run it
require "stringio"
require File.expand_path(ARGV[0])

ActiveRecord::Migration.verbose = false
ActiveRecord::Base.establish_connection(adapter: "postgresql")
case ARGV[1]
when "dump"
  # ActiveRecord 7.2 takes the pool, older ones a connection.
  source = if ActiveRecord::SchemaDumper.method(:dump).parameters.first&.last == :pool
             ActiveRecord::Base.connection_pool
           else
             ActiveRecord::Base.connection
           end
  ActiveRecord::SchemaDumper.dump(source, $stdout)
when "load"
  load File.expand_path(ARGV[2])
else
  abort "usage: schema_tool.rb <recipe.rb> dump | load <schema.rb>"
end
