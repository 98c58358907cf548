# tests/ci/build.mk - what a CI runner meets: Jenkins' JUnit schema for the
# JUnit tests, the Debian package (make deb) and the CI templates.
#
# JUNIT_XSD is Jenkins' junit-10.xsd (xunit plugin), vendored outside the
# repository; tests/reports (junit.c, junit_known.c) and test-ci-template
# validate the harness's JUnit against it with xmllint.
JUNIT_XSD ?= ../shared/vendor/junit-10.xsd

DEB_PACKAGES += libxml2-utils
