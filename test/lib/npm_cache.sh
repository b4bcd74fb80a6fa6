# test/lib/npm_cache.sh (sourced): node modules and builds kept between runs in caches outside the
# checkout, each under a lock (test/scripts/drivers.py, test/scripts/orm_node.sh).

# cache_dir <name> <variable>: where the node modules or the builds of one language are kept
# between runs, outside the checkout: $<variable> if set, else /var/cache/idtypes-<name> as root,
# else ~/.cache/idtypes-<name>.
cache_dir() {
	local dir=${!2:-}
	if [ -z "$dir" ]; then
		if [ "$(id -u)" -eq 0 ]; then dir=/var/cache/idtypes-$1; else dir=${XDG_CACHE_HOME:-$HOME/.cache}/idtypes-$1; fi
	fi
	echo "$dir"
}

# npm_ci_cached <project dir> <cache dir> <package> [npm ci options...]: node_modules of the
# project's checked-in package.json and package-lock.json in the cache, by `npm ci`, run only when
# either file differs from the cache's copy or <package> is not installed there; under the cache's
# lock (concurrent runs share it). Prints "npm ci into <cache>: N s" when it installed; npm's
# output only when it failed. Status 1 if it failed.
npm_ci_cached() {
	local project=$1 cache=$2 package=$3
	shift 3
	mkdir -p "$cache" || return 1
	(
		flock 9
		if ! cmp -s "$project/package.json" "$cache/package.json" ||
			! cmp -s "$project/package-lock.json" "$cache/package-lock.json" ||
			[ ! -f "$cache/node_modules/$package/package.json" ]; then
			start=$SECONDS
			cp "$project/package.json" "$project/package-lock.json" "$cache/" || exit 1
			if ! (cd "$cache" && npm ci --no-audit --no-fund --loglevel=error "$@") >"$cache/npm.log" 2>&1; then
				cat "$cache/npm.log"
				# Not done: the next run tries again.
				rm -f "$cache/package.json" "$cache/package-lock.json"
				exit 1
			fi
			echo "npm ci into $cache: $((SECONDS - start)) s"
		fi
	) 9>"$cache/.lock"
}
