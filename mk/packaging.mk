# packaging.mk: the release and packaging targets, included by the Makefile (`make help`
# lists them): archives, client packages, Debian packages, the CloudNativePG image, a release.

# A PGXN release archive: `git archive` of DIST_REF (default HEAD) as idtypes-<version>.zip (the
# version from that tree's META.json) in DIST_DIR (default: here). test/scripts/dist.sh builds and
# tests what it holds.
DIST_DIR ?= .
DIST_REF ?= HEAD
DIST_VERSION = $(shell git show $(DIST_REF):META.json | sed -n 's/^   "version": "\(.*\)",$$/\1/p')
.PHONY: dist
dist:
	git archive --format=zip --prefix=idtypes-$(DIST_VERSION)/ \
		-o $(DIST_DIR)/idtypes-$(DIST_VERSION).zip $(DIST_REF)
	@echo "dist: $(DIST_DIR)/idtypes-$(DIST_VERSION).zip"

# The client packages for PyPI and npm: the sdist and wheel of clients/python and the npm tarball
# of clients/node, in CLIENTS_DIST_DIR (default: clients/dist). Needs python3-setuptools,
# python3-wheel and npm; test/scripts/clients_dist.py checks and installs what it builds.
CLIENTS_DIST_DIR ?= clients/dist
.PHONY: clients-dist
clients-dist:
	@bash clients/dist.sh $(CLIENTS_DIST_DIR)

# Debian packages: postgresql-<major>-idtypes_<version>-<rev>_<arch>.deb for each server whose
# headers are installed, built by Debian's own tools (debian/, pg_buildext) from a clean export in
# a scratch directory, copied to DEB_DIR (default: here). Needs `scripts/install-deps.sh deb`;
# test/deb/deb_install.sh installs the package in a clean chroot and tests it there.
DEB_DIR ?= .
.PHONY: deb
deb:
	@bash scripts/deb.sh $(DEB_DIR)

# The Debian source package (idtypes_<version>.orig.tar.gz, .dsc, .debian.tar.xz, .changes) and the
# binary packages built from it, for every server the release supports, into DEB_DIR;
# test/deb/debsrc.sh runs lintian and autopkgtest on them in a chroot.
.PHONY: debsrc
debsrc:
	@bash scripts/deb.sh --source $(DEB_DIR)

# The CloudNativePG extension image for the server of PG_CONFIG (18+): idtypes-<version>-pg<major>.oci.tar
# in IMAGE_DIR (default: here), built with umoci and skopeo (scripts/install-deps.sh image);
# test/scripts/image.sh unpacks it and runs the regression tests from it. See scripts/image.sh.
IMAGE_DIR ?= .
.PHONY: image
image:
	@PG_CONFIG=$(PG_CONFIG) bash scripts/image.sh $(IMAGE_DIR)

# Every artifact of a release from its tag (default: the tag on HEAD) into RELEASE_DIR/idtypes-<version>/
# (default release/): source tarball, PGXN zip, .deb files, OCI image archives, RELEASE_NOTES.md and
# SHA256SUMS, after tools/check_versions.py --tag; RELEASE_PARTS="source pgxn deb image" picks
# fewer. See scripts/release.sh.
.PHONY: release
release:
	@bash scripts/release.sh $(TAG)
