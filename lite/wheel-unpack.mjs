/**
 * Unpack a pure wheel into Pyodide's file system in a few calls instead of one
 * Python loop per file.
 *
 * Served as `static/pyodide/ruleslab-wheel-unpack.mjs`, beside the kernel's Pyodide
 * module (`lite/kernel-pyodide.mjs`), which installs it before the kernel's
 * packages are loaded. Pyodide's `loadPackage` hands every wheel to Python's
 * `pyodide._package_loader.unpack_buffer`, which writes it to a temporary file,
 * extracts it with `shutil.unpack_archive` (a Python loop over the members:
 * path checks, `makedirs`, `open`, `copyfileobj`, a CRC check) and reads it again
 * for its metadata. On a cold page, where Python runs on the WebAssembly
 * engine's first, unoptimized code, that was 0.55-0.75 s for the notebook
 * kernel's 16 preloaded wheels (1,700 files), most of it per file.
 *
 * Here the zip's central directory is read in JavaScript, every member is
 * inflated and its CRC-32 checked in one Python call (zlib, C code), and the
 * files are written with Emscripten's `FS.writeFile`. The result is the tree
 * `unpack_buffer` makes: the same files, bytes and permissions, the same
 * `INSTALLER`/`PYODIDE_SOURCE` metadata in the `.dist-info` folder. Anything
 * this does not handle goes to Pyodide's own `unpack_buffer`, unchanged: a
 * format other than a wheel, a wheel with a `.data` folder or a shared library
 * (`.so`, which Pyodide must load), a member outside the target (an absolute
 * path or `..`, which Pyodide skips), ZIP64, encryption, a compression other
 * than stored or deflated, not exactly one `.dist-info` folder, or a CRC that
 * does not match (Pyodide's own reading then reports it).
 */

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/**
 * The members of the zip `bytes` (a `Uint8Array`): `{name, method, crc, start, size,
 * length}` each (`start`/`size`: the stored data; `length`: unpacked), or `null`
 * for a zip this does not read (ZIP64, encrypted, several disks, no directory).
 */
export function centralDirectory(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const last = bytes.length - 22;
  let end = -1;
  for (let at = last; at >= 0 && at >= last - 0xffff; at--) {
    if (view.getUint32(at, true) === EOCD) {
      end = at;
      break;
    }
  }
  if (end < 0) return null;
  const count = view.getUint16(end + 10, true);
  const onThisDisk = view.getUint16(end + 8, true);
  let at = view.getUint32(end + 16, true);
  if (count === 0xffff || at === 0xffffffff || onThisDisk !== count) return null; // ZIP64, disks
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const members = [];
  for (let n = 0; n < count; n++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== CENTRAL) return null;
    const flags = view.getUint16(at + 8, true);
    const method = view.getUint16(at + 10, true);
    const crc = view.getUint32(at + 16, true);
    const size = view.getUint32(at + 20, true);
    const length = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const local = view.getUint32(at + 42, true);
    if (flags & 0x1 || size === 0xffffffff || length === 0xffffffff || local === 0xffffffff) {
      return null; // encrypted, or ZIP64
    }
    let name;
    try {
      name = decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    } catch {
      return null; // not UTF-8 (zipfile would read it as cp437)
    }
    if (!(flags & 0x800) && /[^\x00-\x7f]/.test(name)) return null; // cp437 to zipfile
    at += 46 + nameLength + extraLength + commentLength;
    if (local + 30 > bytes.length || view.getUint32(local, true) !== LOCAL) return null;
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    if (start + size > bytes.length) return null;
    members.push({ name, method, crc, start, size, length });
  }
  return members;
}

/** A distribution's name as Pyodide compares them (PEP 503). */
const canonical = (name) => name.toLowerCase().replace(/[-_.]+/g, "-");

/** Whether the members of the wheel `filename` are a wheel this unpacks (see the
 * module's comment); the name of its `.dist-info` folder if so, else `null`. */
function plainWheel(members, filename) {
  const tops = new Set();
  for (const { name, method } of members) {
    if (method !== 0 && method !== 8) return null;
    if (name.startsWith("/") || name.split("/").includes("..")) return null;
    if (/\.so(\.|$)/.test(name.split("/").pop())) return null;
    tops.add(name.split("/")[0]);
  }
  if ([...tops].some((top) => top.endsWith(".data"))) return null;
  const distInfo = [...tops].filter((top) => top.endsWith(".dist-info"));
  if (distInfo.length !== 1) return null;
  // Pyodide refuses a wheel whose .dist-info folder is not named after it
  const wheelName = canonical(filename.split("-")[0]);
  return canonical(distInfo[0].slice(0, -".dist-info".length)).startsWith(wheelName)
    ? distInfo[0]
    : null;
}

/** Python: every member's bytes, inflated if deflated, CRC-checked; None on a bad CRC. */
const MEMBERS = `
def _ruleslab_members(buffer, spans):
    import zlib

    data = memoryview(buffer.to_bytes())
    out = []
    for start, size, method, crc in spans.to_py():
        raw = data[start : start + size]
        member = zlib.decompress(raw, -15) if method == 8 else bytes(raw)
        if zlib.crc32(member) != crc:
            return None
        out.append(member)
    return out


_ruleslab_members
`;

/** The Python function of {@link MEMBERS}, per interpreter. */
const readers = new WeakMap();

/** Python: `unpack_buffer`, trying `unpack` (this module's) first. */
const INSTALL = `
def _ruleslab_install(unpack):
    import pyodide._package_loader as loader
    from pyodide.ffi import to_js

    original = getattr(loader.unpack_buffer, "__wrapped__", loader.unpack_buffer)

    def unpack_buffer(
        buffer, *, filename="", format=None, extract_dir=None, calculate_dynlibs=False, metadata=None
    ):
        if format is None and extract_dir and filename.endswith(".whl"):
            pairs = [[str(key), str(value)] for key, value in (metadata or {}).items()]
            if unpack(buffer, str(extract_dir), filename.rpartition("/")[2], to_js(pairs)):
                return to_js([]) if calculate_dynlibs else None
        return original(
            buffer,
            filename=filename,
            format=format,
            extract_dir=extract_dir,
            calculate_dynlibs=calculate_dynlibs,
            metadata=metadata,
        )

    unpack_buffer.__wrapped__ = original
    unpack_buffer.__doc__ = original.__doc__
    loader.unpack_buffer = unpack_buffer


_ruleslab_install
`;

/**
 * Unpack the wheel `bytes` (named `filename`) into the folder `target` of `pyodide`'s
 * file system, with `metadata` (`[file name, text]` pairs) written into its
 * `.dist-info` folder; `false` (nothing written) for a wheel this leaves to Pyodide.
 */
export function unpackWheel(pyodide, bytes, target, filename, metadata = []) {
  const members = centralDirectory(bytes);
  const distInfo = members && plainWheel(members, filename);
  if (!distInfo) return false;
  const files = members.filter(({ name }) => !name.endsWith("/"));
  if (!readers.has(pyodide)) readers.set(pyodide, pyodide.runPython(MEMBERS));
  const found = readers
    .get(pyodide)(bytes, files.map(({ start, size, method, crc }) => [start, size, method, crc]));
  if (found === undefined || found === null) return false; // a bad CRC: Pyodide reports it
  const contents = found.toJs();
  found.destroy();
  const { FS } = pyodide;
  const root = target.replace(/\/+$/, "");
  const made = new Set();
  const folder = (path) => {
    if (!made.has(path)) {
      FS.mkdirTree(path);
      made.add(path);
    }
  };
  folder(root);
  for (const { name } of members) {
    if (name.endsWith("/")) folder(`${root}/${name.replace(/\/+$/, "")}`);
  }
  files.forEach(({ name }, n) => {
    const path = `${root}/${name}`;
    folder(path.slice(0, path.lastIndexOf("/")));
    FS.writeFile(path, contents[n]); // (mode 0o666, as Python's open() makes it here)
  });
  for (const [key, value] of metadata) {
    FS.writeFile(`${root}/${distInfo}/${key}`, String(value));
  }
  return true;
}

/** Make `pyodide`'s `unpack_buffer` use {@link unpackWheel} for the wheels it handles. */
export function installWheelUnpacker(pyodide) {
  const install = pyodide.runPython(INSTALL);
  try {
    install((bytes, target, filename, metadata) =>
      unpackWheel(pyodide, bytes, target, filename, metadata),
    );
  } finally {
    install.destroy();
  }
}
