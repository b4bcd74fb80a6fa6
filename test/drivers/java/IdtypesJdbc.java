// idtypes from Java with the PostgreSQL JDBC driver (pgjdbc).
//
// Connects to the URL given as the first argument, else to
// jdbc:postgresql://$PGHOST:$PGPORT/$PGDATABASE?user=$PGUSER&prepareThreshold=1 (PGHOST must be a
// TCP host: pgjdbc does not speak unix sockets without extra libraries), and:
// - creates a table with a column of each idtypes type, generated defaults, and generated rows;
// - has the server make IDs at chosen times (generate_<kind>_at with an OffsetDateTime parameter),
//   inserts them as parameters through setObject with a PGobject whose type name is the idtypes
//   type ("uid11", "ulid", ...), reads them back with getString and getObject (a PGobject of that
//   type), inserts the PGobjects read back (and, for ulid and euid, java.util.UUID values: the
//   assignment cast from uuid) again, and checks every value is exactly what was sent;
// - decodes every row's text (BigInteger codecs below) and checks it against the server's casts
//   (uid11::numeric, ::bigint, ::uuid) and the decoded times against the chosen ones;
// - queries by `^@` prefix (setString), by `<@ <type>_time_range(?)` (a tstzrange PGobject) and, for
//   ulid and euid, by `= ?` with a java.util.UUID, in server-prepared statements
//   (prepareThreshold=1) with plan_cache_mode = force_generic_plan: the rows must be the expected
//   ones, the statement must have run with a generic plan (pg_prepared_statements), and that plan,
//   EXPLAINed through a server-side PREPARE of the same text and parameter types, must be a btree
//   index range scan.
// Prints one line per check ("ok: ..." or "FAILED: ...") and exits 1 if any check failed.

import java.math.BigInteger;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.postgresql.util.PGobject;

public class IdtypesJdbc {
    static final String BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
    static final String SORTABLE32 = "234567abcdefghijklmnopqrstuvwxyz"; // atproto TID
    static final String CROCKFORD32 = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

    /** One type: column, alphabet, bits under the time field, the time's epoch and unit. */
    static final class Kind {
        final String type, column, alphabet, generator, timeFn, serverValue;
        final int shift;
        final Instant epoch;
        final ChronoUnit unit;
        final boolean check;

        Kind(String type, String column, String alphabet, int shift, Instant epoch, ChronoUnit unit,
                boolean check, String generator, String timeFn, String serverValue) {
            this.type = type; this.column = column; this.alphabet = alphabet; this.shift = shift;
            this.epoch = epoch; this.unit = unit; this.check = check; this.generator = generator;
            this.timeFn = timeFn; this.serverValue = serverValue;
        }

        /** The value of a canonical text; for EUID the check symbol (value mod 127) is verified. */
        BigInteger decode(String text) {
            BigInteger base = BigInteger.valueOf(alphabet.length());
            BigInteger n = BigInteger.ZERO;
            for (char ch : text.toCharArray()) {
                int digit = alphabet.indexOf(ch);
                if (digit < 0) throw new IllegalArgumentException(type + ": bad symbol in " + text);
                n = n.multiply(base).add(BigInteger.valueOf(digit));
            }
            if (!check) return n;
            BigInteger value = n.shiftRight(7);
            if ((n.intValue() & 127) != value.mod(BigInteger.valueOf(127)).intValue())
                throw new IllegalArgumentException("euid: bad check symbol in " + text);
            return value;
        }

        /** The canonical text of a value (the inverse of decode). */
        String encode(BigInteger value) {
            BigInteger n = check ? value.shiftLeft(7).or(value.mod(BigInteger.valueOf(127))) : value;
            BigInteger base = BigInteger.valueOf(alphabet.length());
            int width = Map.of("uid11", 11, "timeid", 13, "ulidflake", 13, "ulid", 26, "euid", 27).get(type);
            char[] out = new char[width];
            for (int i = width - 1; i >= 0; i--) {
                BigInteger[] qr = n.divideAndRemainder(base);
                out[i] = alphabet.charAt(qr[1].intValue());
                n = qr[0];
            }
            if (n.signum() != 0) throw new IllegalArgumentException(type + ": value too large");
            return new String(out);
        }

        /** The time an ID carries, in the type's unit since 1970. */
        long unitsSince1970(BigInteger value) {
            return value.shiftRight(shift).longValueExact() + unit.between(Instant.EPOCH, epoch);
        }
    }

    static final Instant UNIX = Instant.EPOCH;
    static final List<Kind> KINDS = List.of(
            new Kind("uid11", "x", BASE58, 22, Instant.parse("2011-11-11T11:11:11.111Z"), ChronoUnit.MILLIS, false,
                    "generate_xid", "xid_timestamp", "x::numeric::text"),
            new Kind("timeid", "t", SORTABLE32, 10, UNIX, ChronoUnit.MICROS, false,
                    "generate_tid", "timeid_timestamp", "t::bigint::text"),
            new Kind("ulidflake", "f", CROCKFORD32, 20, Instant.parse("2024-01-01T00:00:00Z"), ChronoUnit.MILLIS, false,
                    "generate_ulidflake", "ulidflake_timestamp", "f::bigint::text"),
            new Kind("ulid", "u", CROCKFORD32, 80, UNIX, ChronoUnit.MILLIS, false,
                    "generate_ulid", "ulid_timestamp", "u::uuid::text"),
            new Kind("euid", "e", CROCKFORD32, 83, UNIX, ChronoUnit.MILLIS, true,
                    "generate_euid", "euid_timestamp", "e::uuid::text"));
    static final String COLS = "x, t, f, u, e";

    static int checks = 0, failures = 0;

    static void check(boolean ok, String what, String detail) {
        checks++;
        if (ok) {
            System.out.println("ok: " + what);
        } else {
            failures++;
            System.out.println("FAILED: " + what + (detail == null || detail.isEmpty() ? "" : ": " + detail));
        }
    }

    /** A failing query fails its check (with the server's message) and the example goes on. */
    static void failed(String what, SQLException e) {
        check(false, what, e.getSQLState() + ": " + e.getMessage().lines().findFirst().orElse(""));
    }

    static PGobject pgObject(String type, String value) throws SQLException {
        PGobject o = new PGobject();
        o.setType(type);
        o.setValue(value);
        return o;
    }

    static UUID uuidOf(BigInteger value) {
        return new UUID(value.shiftRight(64).longValue(), value.longValue());
    }

    static String quote(String s) {
        return "'" + s.replace("'", "''") + "'";
    }

    static List<String> labels(PreparedStatement ps) throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) out.add(rs.getString(1));
        }
        out.sort(null);
        return out;
    }

    static int planNo = 0;

    /** The driver's statement (found by its marker comment) ran with a generic plan, and that plan,
     *  EXPLAINed through a server-side PREPARE of the same text and parameter types, reads a btree
     *  index range with the parameter in the index condition. */
    static void checkGenericPlan(Connection conn, String marker, String what, String param) throws SQLException {
        String statement = null, types = null, info = null;
        int found = 0;
        try (PreparedStatement ps = conn.prepareStatement(
                "SELECT statement, array_to_string(parameter_types::text[], ', '), to_jsonb(p)::text"
                        + " FROM pg_prepared_statements p WHERE NOT from_sql AND strpos(statement, ?) > 0")) {
            ps.setString(1, marker);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    found++;
                    statement = rs.getString(1);
                    types = rs.getString(2);
                    info = rs.getString(3);
                }
            }
        }
        if (found != 1) {
            check(false, what + ": driver statement prepared", found + " statements in pg_prepared_statements");
            return;
        }
        Matcher generic = Pattern.compile("\"generic_plans\": (\\d+)").matcher(info);
        Matcher custom = Pattern.compile("\"custom_plans\": (\\d+)").matcher(info);
        if (generic.find() && custom.find()) { // PostgreSQL 14+
            check(Long.parseLong(generic.group(1)) >= 1 && Long.parseLong(custom.group(1)) == 0,
                    what + ": ran with a generic plan (" + types + ")",
                    "generic_plans " + generic.group(1) + ", custom_plans " + custom.group(1));
        }
        String name = "check_plan_" + ++planNo;
        List<String> lines = new ArrayList<>();
        try (Statement st = conn.createStatement()) {
            st.execute("PREPARE " + name + " (" + types + ") AS " + statement);
            try (ResultSet rs = st.executeQuery("EXPLAIN EXECUTE " + name + " (" + quote(param) + ")")) {
                while (rs.next()) lines.add(rs.getString(1));
            }
            st.execute("DEALLOCATE " + name);
        }
        String plan = String.join("\n", lines);
        Matcher scan = Pattern.compile("(Index Scan|Index Only Scan|Bitmap Index Scan) using (\\S+)").matcher(plan);
        String cond = lines.stream().filter(l -> l.contains("Index Cond") && l.contains("$1")).map(String::trim)
                .findFirst().orElse(null);
        boolean hasScan = scan.find();
        check(hasScan && cond != null && !plan.contains("Seq Scan"),
                what + ": generic plan is " + (hasScan ? scan.group(0) : "no index scan") + ", "
                        + (cond != null ? cond : "no Index Cond on $1"), "\n" + plan);
    }

    public static void main(String[] args) throws Exception {
        String url = args.length > 0 ? args[0]
                : "jdbc:postgresql://" + env("PGHOST", "127.0.0.1") + ":" + env("PGPORT", "5432") + "/"
                        + env("PGDATABASE", "postgres") + "?user=" + env("PGUSER", "postgres") + "&prepareThreshold=1";
        try (Connection conn = DriverManager.getConnection(url)) {
            run(conn);
        } catch (Exception e) {
            e.printStackTrace(System.out);
            check(false, "exception", e.toString());
        }
        System.out.println(checks + " checks, " + failures + " failed");
        System.exit(failures == 0 ? 0 : 1);
    }

    static String env(String name, String dflt) {
        String v = System.getenv(name);
        return v == null || v.isEmpty() ? dflt : v;
    }

    static void run(Connection conn) throws SQLException {
        System.out.println("pgjdbc " + conn.getMetaData().getDriverVersion() + ", java "
                + System.getProperty("java.version") + ", server " + conn.getMetaData().getDatabaseProductVersion());
        try (Statement st = conn.createStatement()) {
            st.execute("SET client_min_messages = warning");
            st.execute("CREATE EXTENSION IF NOT EXISTS idtypes");
            st.execute("SET plan_cache_mode = force_generic_plan");
            st.execute("SET TimeZone = 'UTC'");
            st.execute("DROP TABLE IF EXISTS example_ids");
            StringBuilder create = new StringBuilder("CREATE TABLE example_ids (label text PRIMARY KEY");
            for (Kind k : KINDS) {
                create.append(", ").append(k.column).append(' ').append(k.type).append(" NOT NULL DEFAULT ")
                        .append(k.generator).append("()");
            }
            st.execute(create + ")");
            for (Kind k : KINDS) st.execute("CREATE INDEX example_ids_" + k.column + " ON example_ids (" + k.column + ")");
            st.execute("INSERT INTO example_ids (label) SELECT 'gen-' || g FROM generate_series(1, 2000) g");
            st.execute("ANALYZE example_ids");
        }

        // Six rows 90 s apart with a random sub-second part, IDs made by the server at those times,
        // and the smallest and largest IDs.
        Random random = new Random();
        OffsetDateTime base = OffsetDateTime.of(2024, 8, 1, 10, 0, 0, 0, ZoneOffset.UTC);
        Map<String, String[]> made = new LinkedHashMap<>(); // label -> text per kind
        Map<String, OffsetDateTime> times = new LinkedHashMap<>();
        StringBuilder gen = new StringBuilder("SELECT ");
        for (Kind k : KINDS) gen.append(k == KINDS.get(0) ? "" : ", ").append(k.generator).append("_at(?)");
        try (PreparedStatement ps = conn.prepareStatement(gen.toString())) {
            for (int i = 0; i < 6; i++) {
                OffsetDateTime when = base.plusSeconds(90L * i).plusNanos(random.nextInt(1_000_000) * 1000L);
                for (int c = 1; c <= KINDS.size(); c++) ps.setObject(c, when);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    String[] ids = new String[KINDS.size()];
                    for (int c = 0; c < ids.length; c++) ids[c] = rs.getString(c + 1);
                    made.put("java-" + i, ids);
                    times.put("java-" + i, when);
                }
            }
        }
        String[] min = new String[KINDS.size()], max = new String[KINDS.size()];
        int[] bits = {64, 63, 63, 128, 128};
        for (int c = 0; c < KINDS.size(); c++) {
            min[c] = KINDS.get(c).encode(BigInteger.ZERO);
            max[c] = KINDS.get(c).encode(BigInteger.ONE.shiftLeft(bits[c]).subtract(BigInteger.ONE));
        }
        made.put("java-min", min);
        made.put("java-max", max);
        String insert = "INSERT INTO example_ids (label, " + COLS + ") VALUES (?, ?, ?, ?, ?, ?)";
        try (PreparedStatement ps = conn.prepareStatement(insert)) {
            for (Map.Entry<String, String[]> e : made.entrySet()) {
                ps.setString(1, e.getKey());
                for (int c = 0; c < KINDS.size(); c++) ps.setObject(c + 2, pgObject(KINDS.get(c).type, e.getValue()[c]));
                ps.executeUpdate();
            }
        }

        // Read back: getString is the text sent, getObject a PGobject of the idtypes type.
        String select = "SELECT label, " + COLS + " FROM example_ids WHERE label LIKE ? ORDER BY label";
        Map<String, PGobject[]> objects = new LinkedHashMap<>();
        List<String> bad = new ArrayList<>();
        try (PreparedStatement ps = conn.prepareStatement(select)) {
            ps.setString(1, "java-%");
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String label = rs.getString(1);
                    PGobject[] objs = new PGobject[KINDS.size()];
                    for (int c = 0; c < KINDS.size(); c++) {
                        String want = made.get(label)[c];
                        Object o = rs.getObject(c + 2);
                        if (!want.equals(rs.getString(c + 2)) || !(o instanceof PGobject)
                                || !KINDS.get(c).type.equals(((PGobject) o).getType()) || !want.equals(((PGobject) o).getValue())) {
                            bad.add(label + " " + KINDS.get(c).type + ": " + rs.getString(c + 2) + " (" + o.getClass().getName() + ")");
                        }
                        if (o instanceof PGobject) objs[c] = (PGobject) o;
                    }
                    objects.put(label, objs);
                }
            }
        }
        check(bad.isEmpty() && objects.keySet().equals(made.keySet()), objects.size()
                + " rows x 5 types inserted as PGobject parameters read back exactly (getString, getObject -> PGobject)",
                String.join("; ", bad));

        // The PGobjects read back as parameters again; for ulid and euid a java.util.UUID instead.
        try (PreparedStatement ps = conn.prepareStatement(insert)) {
            for (Map.Entry<String, PGobject[]> e : objects.entrySet()) {
                ps.setString(1, "copy-" + e.getKey());
                for (int c = 0; c < KINDS.size(); c++) {
                    Kind k = KINDS.get(c);
                    if (k.type.equals("ulid") || k.type.equals("euid")) {
                        ps.setObject(c + 2, uuidOf(k.decode(e.getValue()[c].getValue())));
                    } else {
                        ps.setObject(c + 2, e.getValue()[c]);
                    }
                }
                ps.executeUpdate();
            }
        }
        bad.clear();
        int copies = 0;
        try (PreparedStatement ps = conn.prepareStatement(select)) {
            ps.setString(1, "copy-java-%");
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    copies++;
                    String[] want = made.get(rs.getString(1).substring(5));
                    for (int c = 0; c < KINDS.size(); c++) {
                        if (!want[c].equals(rs.getString(c + 2))) bad.add(rs.getString(1) + " " + KINDS.get(c).type);
                    }
                }
            }
        }
        check(bad.isEmpty() && copies == made.size(), copies
                + " rows inserted again (PGobjects read back; java.util.UUID for ulid and euid) read back exactly",
                String.join("; ", bad));

        // Every row: the client's decoding against the server's casts; the times of the made rows.
        Map<String, String[]> all = new LinkedHashMap<>();
        bad.clear();
        StringBuilder q = new StringBuilder("SELECT label, " + COLS);
        for (Kind k : KINDS) q.append(", ").append(k.serverValue);
        for (Kind k : KINDS) q.append(", ").append(k.timeFn).append('(').append(k.column).append(')');
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery(q + " FROM example_ids")) {
            while (rs.next()) {
                String label = rs.getString(1);
                String[] texts = new String[KINDS.size()];
                for (int c = 0; c < KINDS.size(); c++) {
                    Kind k = KINDS.get(c);
                    texts[c] = rs.getString(c + 2);
                    BigInteger value = k.decode(texts[c]);
                    String server = rs.getString(c + 7);
                    boolean ok = k.serverValue.endsWith("::uuid::text") ? uuidOf(value).toString().equals(server)
                            : value.equals(new BigInteger(server));
                    if (!ok) bad.add(label + " " + k.type + ": " + texts[c] + " decodes to " + value + ", server says " + server);
                    OffsetDateTime when = times.get(label.replace("copy-", ""));
                    if (when != null) {
                        OffsetDateTime serverTime = rs.getObject(c + 12, OffsetDateTime.class);
                        Instant want = when.toInstant().truncatedTo(k.unit);
                        long units = k.unitsSince1970(value);
                        if (!serverTime.toInstant().equals(want) || units != k.unit.between(UNIX, want)) {
                            bad.add(label + " " + k.type + " time: server " + serverTime + ", decoded " + units + ", want " + want);
                        }
                    }
                }
                all.put(label, texts);
            }
        }
        check(bad.isEmpty() && all.size() == 2000 + 2 * made.size(), "all " + all.size()
                + " rows: decoded values equal the server's casts; server-made IDs carry the chosen times (accessor and decoded)",
                String.join("; ", bad.subList(0, Math.min(3, bad.size()))));

        // Server-prepared statements with bound parameters, generic plans.
        List<String> want3 = List.of("java-1", "java-2", "java-3");
        for (int c = 0; c < KINDS.size(); c++) {
            Kind k = KINDS.get(c);
            // ^@: the common prefix of rows 1 and 3 (so row 2 has it too); expected from every row's text.
            String a = made.get("java-1")[c], b = made.get("java-3")[c];
            int n = 0;
            while (n < a.length() && a.charAt(n) == b.charAt(n)) n++;
            String prefix = a.substring(0, n);
            TreeSet<String> want = new TreeSet<>();
            final int col = c;
            all.forEach((label, texts) -> { if (texts[col].startsWith(prefix)) want.add(label); });
            String marker = "[prefix java " + k.type + "]";
            try (PreparedStatement ps = conn.prepareStatement(
                    "SELECT label /* " + marker + " */ FROM example_ids WHERE " + k.column + " ^@ ?")) {
                ps.setString(1, prefix);
                List<String> got = labels(ps);
                check(got.equals(new ArrayList<>(want)) && got.containsAll(want3),
                        k.type + " ^@ '" + prefix + "' (setString) -> " + got.size() + " rows, as expected",
                        "got " + got + ", want " + want);
                checkGenericPlan(conn, marker, k.type + " ^@ ?", prefix);
            } catch (SQLException e) {
                failed(k.type + " ^@ ?", e);
            }

            // <@ time range: rows 1..3 (90 s apart) and their copies; expected from every row's decoded time.
            OffsetDateTime lo = base.plusSeconds(90), hi = base.plusSeconds(360);
            String window = "[" + lo + "," + hi + ")";
            long loUnit = k.unit.between(UNIX, lo.toInstant()), hiUnit = k.unit.between(UNIX, hi.toInstant());
            TreeSet<String> wantWindow = new TreeSet<>();
            all.forEach((label, texts) -> {
                long u = k.unitsSince1970(k.decode(texts[col]));
                if (u >= loUnit && u < hiUnit) wantWindow.add(label);
            });
            marker = "[range java " + k.type + "]";
            try (PreparedStatement ps = conn.prepareStatement("SELECT label /* " + marker + " */ FROM example_ids WHERE "
                    + k.column + " <@ " + k.type + "_time_range(?)")) {
                ps.setObject(1, pgObject("tstzrange", window));
                List<String> got = labels(ps);
                List<String> expected = new ArrayList<>(want3);
                for (String l : want3) expected.add("copy-" + l);
                expected.sort(null);
                check(got.equals(new ArrayList<>(wantWindow)) && got.equals(expected),
                        k.type + " <@ " + k.type + "_time_range(tstzrange PGobject '" + window + "') -> " + got,
                        "by decoding " + wantWindow + ", by construction " + expected);
                checkGenericPlan(conn, marker, k.type + " <@ " + k.type + "_time_range(?)", window);
            } catch (SQLException e) {
                failed(k.type + " <@ " + k.type + "_time_range(?)", e);
            }

            // = java.util.UUID (ulid, euid): a parameter typed uuid.
            if (k.type.equals("ulid") || k.type.equals("euid")) {
                UUID key = uuidOf(k.decode(made.get("java-2")[c]));
                marker = "[uuid java " + k.type + "]";
                try (PreparedStatement ps = conn.prepareStatement(
                        "SELECT label /* " + marker + " */ FROM example_ids WHERE " + k.column + " = ?")) {
                    ps.setObject(1, key);
                    List<String> got = labels(ps);
                    check(got.equals(List.of("copy-java-2", "java-2")),
                            k.type + " = java.util.UUID " + key + " finds its row and its copy", got.toString());
                    checkGenericPlan(conn, marker, k.type + " = ? (uuid)", key.toString());
                } catch (SQLException e) {
                    failed(k.type + " = ? (uuid)", e);
                }
            }
        }
    }
}
