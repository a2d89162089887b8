# GelfLayout compresses with zlib itself (libz-sys links the system library, whose deflate
# output is byte for byte the JDK's); its headers and pkg-config entry come with zlib1g-dev.
if ! [ -r /usr/include/zlib.h ] || ! command -v pkg-config >/dev/null; then
    ci_apt_install zlib1g-dev pkg-config
fi
