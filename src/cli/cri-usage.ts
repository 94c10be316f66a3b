/** The help of `memkube cri`, apart from the command so that `memkube --help` does not load gRPC. */

/** `memkube cri --help`. */
export const CRI_USAGE =
  'usage: memkube cri --socket PATH [--root-dir DIR] [--image REF ...] [--checkpoint-unimplemented]\n\n' +
  '  --socket PATH    unix socket to serve runtime.v1 on (unix:///path or /path); a stale socket is replaced\n' +
  '  --root-dir DIR   base of relative log directories and checkpoint locations (created if missing)\n' +
  '  --image REF      an image a pull finds (repeatable); without any, every image is found\n' +
  '  --checkpoint-unimplemented   answer CheckpointContainer with UNIMPLEMENTED, as containerd 1.6 does\n\n' +
  'A container is scripted by its environment: MEMKUBE_CRI_STDOUT, MEMKUBE_CRI_STDERR (what it prints),\n' +
  'MEMKUBE_CRI_EXIT_CODE, MEMKUBE_CRI_EXIT_AFTER_MS (when it exits), MEMKUBE_CRI_STOP_EXIT_CODE,\n' +
  'MEMKUBE_CRI_CHECKPOINT_ERROR, MEMKUBE_CRI_CHECKPOINT_DELAY_MS (how its checkpoints go).';
