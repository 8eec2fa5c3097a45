/**
 * A zip of one executable file, the same bytes on every machine: stored with a fixed time
 * (1980-01-01, zip's epoch), Unix mode 0755 (terraform keeps it when it unpacks), deflated.
 */
import { crc32, deflateRawSync } from 'node:zlib';

const DOS_DATE_1980_01_01 = (0 << 9) | (1 << 5) | 1;
const UNIX_EXECUTABLE = 0o100755;

export function zipOneFile(name: string, data: Buffer): Buffer {
  const nameBytes = Buffer.from(name, 'utf8');
  const compressed = deflateRawSync(data, { level: 9 });
  const crc = crc32(data);
  const common = (h: Buffer, at: number) => {
    h.writeUInt16LE(20, at); // version needed: 2.0 (deflate)
    h.writeUInt16LE(0x0800, at + 2); // UTF-8 name
    h.writeUInt16LE(8, at + 4); // deflate
    h.writeUInt16LE(0, at + 6); // time 00:00
    h.writeUInt16LE(DOS_DATE_1980_01_01, at + 8);
    h.writeUInt32LE(crc, at + 10);
    h.writeUInt32LE(compressed.length, at + 14);
    h.writeUInt32LE(data.length, at + 18);
    h.writeUInt16LE(nameBytes.length, at + 22);
    h.writeUInt16LE(0, at + 24); // no extra field
  };
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  common(local, 4);

  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE((3 << 8) | 20, 4); // made by: Unix, zip 2.0
  common(central, 6);
  central.writeUInt16LE(0, 32); // no comment
  central.writeUInt16LE(0, 34); // disk 0
  central.writeUInt16LE(0, 36); // internal attributes
  central.writeUInt32LE((UNIX_EXECUTABLE << 16) >>> 0, 38);
  central.writeUInt32LE(0, 42); // offset of the local header

  const centralStart = local.length + nameBytes.length + compressed.length;
  const centralSize = central.length + nameBytes.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(centralStart, 16);
  return Buffer.concat([local, nameBytes, compressed, central, nameBytes, end]);
}
