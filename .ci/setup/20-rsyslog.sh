# A real rsyslog for crates/integration-tests/tests/rsyslog.rs and crates/integration-tests/tests/relp.rs (plain TCP, UDP, a GnuTLS input and the
# RELP inputs of imrelp, plain and TLS), and the openssl CLI that makes the test certificates
# and PKCS12 stores. The tests start and stop rsyslogd themselves on 127.0.0.1; the package's
# own service is not needed. dpkg is asked which packages are installed, so the check holds on
# any architecture (the modules' directory is named after it).
rsyslog_packages="rsyslog rsyslog-gnutls rsyslog-openssl rsyslog-relp"
# With packages missing, dpkg-query exits 1 and `grep -c` exits 1 when it counts nothing;
# under `set -e -o pipefail` either would end .ci/run, so the count alone decides.
# shellcheck disable=SC2086 # one argument per package
rsyslog_installed=$(dpkg-query -W -f='${Status}\n' $rsyslog_packages 2>/dev/null \
    | grep -c '^install ok installed$' || true)
if [ "$rsyslog_installed" -ne 4 ] || ! command -v openssl >/dev/null; then
    # shellcheck disable=SC2086
    ci_apt_install $rsyslog_packages openssl
fi
