// The QR symbol of a payload: qrcode's, with an ECI designator for UTF-8 before text that is not
// ASCII. Byte mode has no charset of its own (ISO-8859-1 by the standard, Shift-JIS by habit), so
// without the ECI zbar reads UTF-8 `Café` as Shift-JIS `Caf矇` while zxing-cpp and jsQR guess
// UTF-8; with ECI 26 all three read the same text. ASCII payloads read alike in every charset and
// keep qrcode's own segments, so their images stay byte for byte what they were.
import QRCode, {
  type QRCode as QRCodeSymbol,
  type QRCodeErrorCorrectionLevel,
  type QRCodeMaskPattern,
  type QRCodeSegment,
} from 'qrcode';

/** ECI assignment number of UTF-8 (ISO/IEC 18004 and AIM ECI). */
const UTF8_ECI = 26;

/** A segment as qrcode writes it: a 4-bit mode, a count of `ccBits[class of version]` bits, then its data. */
interface Segment {
  mode: { id: string; bit: number; ccBits: [number, number, number] };
  getLength(): number;
  getBitsLength(): number;
  write(buffer: { put(value: number, bits: number): void }): void;
}

/**
 * Mode 0111 and an assignment number below 128, which is written in 8 bits: qrcode writes the
 * number as the segment's count, with no data after it.
 */
const eciSegment: Segment = {
  mode: { id: 'ECI', bit: 0b0111, ccBits: [8, 8, 8] },
  getLength: () => UTF8_ECI,
  getBitsLength: () => 0,
  write: () => {},
};

/** The text's UTF-8 bytes in byte mode (mode 0100; a count of 8 bits up to version 9, 16 above). */
function utf8Segment(text: string): Segment {
  const bytes = new TextEncoder().encode(text);
  return {
    mode: { id: 'Byte', bit: 0b0100, ccBits: [8, 16, 16] },
    getLength: () => bytes.length,
    getBitsLength: () => bytes.length * 8,
    write: (buffer) => bytes.forEach((byte) => buffer.put(byte, 8)),
  };
}

/**
 * qrcode 1.5 has no ECI segment, and `create` rebuilds an array's segments with `array.reduce`,
 * keeping only its four modes. An array whose own `reduce` answers these segments hands them
 * through as they are; version choice, padding, error correction and masking stay qrcode's.
 */
function prebuilt(segments: Segment[]): QRCodeSegment[] {
  const list: QRCodeSegment[] = [];
  Object.defineProperty(list, 'reduce', { value: () => segments });
  return list;
}

// Only ASCII is read alike under every charset a decoder might assume.
const ASCII = /^\p{ASCII}*$/u;

/** The QR symbol of `text` (qrcode's error when it does not fit in version 40 at `level`). */
export function encodeQr(
  text: string,
  level: QRCodeErrorCorrectionLevel,
  maskPattern?: QRCodeMaskPattern,
): QRCodeSymbol {
  const options = { errorCorrectionLevel: level, maskPattern };
  if (ASCII.test(text)) return QRCode.create(text, options);
  const qr = QRCode.create(prebuilt([eciSegment, utf8Segment(text)]), options);
  // A qrcode that no longer takes the segments as they are would drop the ECI without a word.
  if ((qr.segments[0] as unknown) !== eciSegment) throw new Error('qrcode did not keep the UTF-8 ECI segment');
  return qr;
}
