/** The help of `memkube cri`, apart from the command so that `memkube --help` does not load gRPC. */

/** `memkube cri --help`. */
export const CRI_USAGE =
  'usage: memkube cri --socket PATH [--root-dir DIR] [--image REF ...]\n\n' +
  '  --socket PATH    unix socket to serve runtime.v1 on (unix:///path or /path); a stale socket is replaced\n' +
  '  --root-dir DIR   base of relative log directories and checkpoint locations (created if missing)\n' +
  '  --image REF      an image a pull finds (repeatable); without any, every image is found';
