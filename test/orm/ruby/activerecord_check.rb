# idtypes from ActiveRecord with the recipe of docs/orms.md:
#   ruby activerecord_check.rb <recipe.rb> <empty database>
# Connects with PGHOST, PGPORT, PGUSER and PGDATABASE (a database with the extension); loads the
# recipe (extracted from the doc) and checks: migrations make columns of the five types (t.ulid,
# id: :ulid, t.references type: :ulid); no "unknown OID" warning; create returns the generated
# key as a String and columns report their type (:ulid); find by the string key (lower case
# too); the other four types round-trip; ^@ and <@ windows return the rows SQL says as index
# scans; LIKE/ILIKE through Arel's matches (where the extension has them); a FK join; schema.rb
# dumps every table with our types, and loading it into the empty database recreates them (the
# extension included) so that an insert there generates its key.
# Prints "ok: ..." / "FAILED: ..." / "skip: ..." per check and "N checks, N failed".
require "stringio"

recipe, fresh_db = ARGV
require File.expand_path(recipe)

$checks = 0
$failed = 0
def check(condition, what, detail = nil)
  $checks += 1
  if condition
    puts "ok: #{what}"
  else
    $failed += 1
    puts "FAILED: #{what}#{detail.nil? ? "" : " (#{detail.inspect})"}"
  end
  $stdout.flush
end

label = "ActiveRecord #{ActiveRecord::VERSION::STRING}"
warnings = StringIO.new
$stderr = warnings
ActiveRecord::Migration.verbose = false
ActiveRecord::Base.establish_connection(adapter: "postgresql")
conn = ActiveRecord::Base.connection

ActiveRecord::Schema.define do
  create_table :ar_events, id: :ulid, default: -> { "generate_ulid()" }, force: true do |t|
    t.text :name
    t.uid11 :uid11
    t.timeid :timeid
    t.ulidflake :ulidflake
    t.euid :euid
  end
  create_table :ar_tickets, id: :ulid, default: -> { "generate_ulid()" }, force: true do |t|
    t.references :event, type: :ulid, null: false, foreign_key: { to_table: :ar_events }
  end
end

class ArEvent < ActiveRecord::Base
  has_many :tickets, class_name: "ArTicket", foreign_key: :event_id
end

class ArTicket < ActiveRecord::Base
  belongs_to :event, class_name: "ArEvent"
end

types = conn.select_rows("SELECT attname, format_type(atttypid, atttypmod) FROM pg_attribute " \
                         "WHERE attrelid IN ('ar_events'::regclass, 'ar_tickets'::regclass) AND attnum > 0").to_h
check(types.values_at("id", "uid11", "timeid", "ulidflake", "euid", "event_id") ==
      %w[ulid uid11 timeid ulidflake euid ulid], "#{label}: migrations make columns of the five types", types)

gen = conn.select_rows("SELECT generate_uid11()::text, generate_timeid()::text, generate_ulidflake()::text, generate_euid()::text").first
event = ArEvent.create!(name: "first", uid11: gen[0], timeid: gen[1], ulidflake: gen[2], euid: gen[3])
key = event.id
check(key.is_a?(String) && key.size == 26 && ArEvent.where(id: key).count == 1,
      "#{label}: create! returns the generated key as a String", key)
check(ArEvent.columns_hash["id"].type == :ulid && ArEvent.columns_hash["timeid"].type == :timeid &&
      ArEvent.columns_hash["euid"].sql_type == "euid", "#{label}: columns report their type (:ulid, :timeid, euid)")
got = ArEvent.find(key)
check(got.name == "first" && [got.uid11, got.timeid, got.ulidflake, got.euid] == gen,
      "#{label}: find by the string key; the other four types round-trip as Strings")
check(ArEvent.find(key.downcase).id == key, "#{label}: find by the key in lower case")
ticket = event.tickets.create!
check(ArTicket.joins(:event).where(ar_events: { id: key }).pluck(:id) == [ticket.id] &&
      ArTicket.find(ticket.id).event.name == "first", "#{label}: a FK join and belongs_to over ulid")

conn.execute("INSERT INTO ar_events (id, name) SELECT generate_ulid_at(timestamptz '2026-03-01 00:00+00' " \
             "+ i * interval '1 hour'), 'h' || i FROM generate_series(0, 47) i")
conn.execute("ANALYZE ar_events")
conn.execute("SET enable_seqscan = off")
prefix = conn.select_value("SELECT left(id::text, 8) FROM ar_events WHERE name = 'h20'")
want = conn.select_values("SELECT name FROM ar_events WHERE id::text LIKE #{conn.quote(prefix + "%")}").sort
# explain is a String on 6.1, an ExplainProxy (whose inspect is the plan) on 7.2.
plan_of = ->(relation) { plan = relation.explain; plan.is_a?(String) ? plan : plan.inspect }
rows_and_plan = lambda do |what, relation, expected|
  check(relation.pluck(:name).sort == expected, "#{label}: #{what} returns the rows SQL says", relation.pluck(:name).sort)
  plan = plan_of.call(relation)
  check(plan.include?("Index") && !plan.include?("Seq Scan"), "#{label}: #{what} is an index scan", plan)
end
rows_and_plan.call("where(\"id ^@ ?\")", ArEvent.where("id ^@ ?", prefix), want)
lo = Time.utc(2026, 3, 1, 10)
hi = Time.utc(2026, 3, 1, 20)
rows_and_plan.call("where(\"id <@ ulid_time_range(tstzrange(?, ?))\")",
                   ArEvent.where("id <@ ulid_time_range(tstzrange(?, ?))", lo, hi), (10..19).map { |i| "h#{i}" }.sort)
if conn.select_value("SELECT count(*) FROM pg_operator WHERE oprname = '~~' AND oprleft = 'ulid'::regtype").to_i.zero?
  puts "skip: #{label}: Arel matches, 3 checks (this build of idtypes has no LIKE on its types; a build with it runs them)"
else
  ids = ArEvent.arel_table[:id]
  rows_and_plan.call("matches(p + '%', nil, true) [LIKE]", ArEvent.where(ids.matches("#{prefix}%", nil, true)), want)
  check(ArEvent.where(ids.matches("#{prefix.downcase}%")).pluck(:name).sort == want,
        "#{label}: matches (ILIKE) in lower case [ILIKE]")
end
conn.execute("RESET enable_seqscan")

dumper_source = ActiveRecord::SchemaDumper.method(:dump).parameters.first&.last == :pool ? ActiveRecord::Base.connection_pool : conn
schema = ActiveRecord::SchemaDumper.dump(dumper_source, StringIO.new).string
check(!schema.include?("Could not dump") &&
      schema.include?('create_table "ar_events", id: :ulid, default: -> { "generate_ulid()" }') &&
      schema.include?('t.uid11 "uid11"') && schema.include?('t.timeid "timeid"') &&
      schema.include?('t.ulidflake "ulidflake"') && schema.include?('t.euid "euid"') &&
      schema.include?('t.ulid "event_id", null: false') && schema.include?('enable_extension "idtypes"'),
      "#{label}: schema.rb dumps the tables with our types", schema)

ActiveRecord::Base.establish_connection(adapter: "postgresql", database: fresh_db)
eval(schema) # rubocop:disable Security/Eval - the dumped schema.rb, as db:schema:load runs it
conn = ActiveRecord::Base.connection
types = conn.select_rows("SELECT attname, format_type(atttypid, atttypmod) FROM pg_attribute " \
                         "WHERE attrelid IN ('ar_events'::regclass, 'ar_tickets'::regclass) AND attnum > 0").to_h
check(types.values_at("id", "uid11", "timeid", "ulidflake", "euid", "event_id") == %w[ulid uid11 timeid ulidflake euid ulid],
      "#{label}: schema.rb loaded into an empty database makes the same columns", types)
ArEvent.reset_column_information
check(ArEvent.create!(name: "loaded").id.size == 26, "#{label}: an insert there generates the key")

$stderr = STDERR
check(!warnings.string.include?("unknown OID"), "#{label}: no \"unknown OID\" warning", warnings.string)
puts "#{$checks} checks, #{$failed} failed"
exit($failed.zero? ? 0 : 1)
