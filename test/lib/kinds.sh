# test/lib/kinds.sh (sourced): the generator kinds the scripted tests exercise, each kind's SQL type
# and generator call.
KINDS="xid tid ulidflake ulidflake_sid ulid ulid_mono euid euid_ext"

type_of() {
	case $1 in
	xid) echo uid11 ;; tid) echo timeid ;; ulidflake*) echo ulidflake ;; ulid*) echo ulid ;; euid*) echo euid ;;
	esac
}

gen_of() {
	case $1 in
	xid) echo "generate_xid()" ;; tid) echo "generate_tid()" ;; ulidflake) echo "generate_ulidflake()" ;;
	ulidflake_sid) echo "generate_ulidflake(5)" ;; ulid) echo "generate_ulid()" ;;
	ulid_mono) echo "generate_ulid_monotonic()" ;; euid) echo "generate_euid()" ;; euid_ext) echo "generate_euid(77)" ;;
	esac
}
