"""A small animated GIF writer for frames that share one palette.

Each frame after the first is stored as the rectangle that changed since the one before, with
its unchanged pixels set to a transparent index, and left in place for the next (disposal 1).
Pillow's own writer does the same but works on whole frames to find and mask the changes; here
only the rectangle is masked, and Pillow compresses it (LZW) by saving it as a one-frame GIF,
whose image block is taken over as it is.
"""

from __future__ import annotations

import io
import struct
from collections.abc import Sequence

from PIL import Image, ImageChops

_UNCHANGED = [255] + [0] * 255  # a difference of 0 (same index) becomes a mask pixel


def animated_gif(frames: Sequence[Image.Image], durations_ms: Sequence[int]) -> bytes:
    """GIF bytes of ``frames`` (``P`` images of one size and one palette of fewer than 256
    colours), each shown ``durations_ms`` long, looping for ever."""
    colours = _palette(frames[0])
    transparent = len(colours) // 3  # the first index after the palette's colours: unused
    bits = max(2, transparent.bit_length())  # a colour table of 2**bits entries holds it
    table = colours + bytes(3 * (2**bits) - len(colours))
    width, height = frames[0].size
    out = bytearray(b"GIF89a")
    out += struct.pack("<HHBBB", width, height, 0x80 | (bits - 1) << 4 | (bits - 1), 0, 0)
    out += table
    out += b"!\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"  # loop for ever
    blocks: list[tuple[bytes, int]] = []  # (image block, duration)
    previous: Image.Image | None = None
    for frame, duration in zip(frames, durations_ms, strict=True):
        if previous is None:
            blocks.append((_image_block(frame.copy(), (0, 0), table), duration))
        else:
            box = ImageChops.subtract_modulo(frame, previous).getbbox()
            if box is None:  # nothing changed: the frame before stays up longer
                blocks[-1] = (blocks[-1][0], blocks[-1][1] + duration)
                continue
            part = frame.crop(box)
            unchanged = ImageChops.subtract_modulo(part, previous.crop(box))
            part.paste(transparent, mask=unchanged.point(_UNCHANGED, "1"))
            blocks.append((_image_block(part, box[:2], table), duration))
        previous = frame
    for block, duration in blocks:
        # Graphic control: leave the frame in place (disposal 1), transparent index set.
        out += b"!\xf9\x04" + struct.pack("<BHBB", 0b100 | 1, duration // 10, transparent, 0)
        out += block
    out += b";"
    return bytes(out)


def _palette(frame: Image.Image) -> bytes:
    palette = frame.getpalette()
    if palette is None or len(palette) >= 3 * 256:
        raise ValueError("frames need a palette of fewer than 256 colours")
    return bytes(palette)


def _image_block(part: Image.Image, offset: tuple[int, int], table: bytes) -> bytes:
    """The image descriptor (at ``offset``) and LZW data of ``part``."""
    part.putpalette(table)  # every index, the transparent one included, has a colour
    buffer = io.BytesIO()
    # As it is: no palette of its own (optimize), rows in order (interlace).
    part.save(buffer, "GIF", optimize=False, interlace=False)
    interlaced, data = _image_data(buffer.getvalue())
    descriptor = b"," + struct.pack("<HHHHB", *offset, *part.size, interlaced)
    return descriptor + data


def _image_data(gif: bytes) -> tuple[int, bytes]:
    """From a one-frame GIF, its image's interlace flag and LZW data (the code size byte and
    the sub-blocks)."""
    at = 13
    if gif[10] & 0x80:  # the global colour table
        at += 3 * 2 ** ((gif[10] & 7) + 1)
    while gif[at] == 0x21:  # extensions, before the image
        at += 2
        at = _after_sub_blocks(gif, at)
    if gif[at] != 0x2C:
        raise ValueError("no image in the GIF Pillow wrote")
    packed = gif[at + 9]
    at += 10
    if packed & 0x80:  # a local colour table
        at += 3 * 2 ** ((packed & 7) + 1)
    return packed & 0x40, gif[at : _after_sub_blocks(gif, at + 1)]


def _after_sub_blocks(gif: bytes, at: int) -> int:
    """The position just after the data sub-blocks starting at ``at`` (and their end)."""
    while gif[at]:
        at += gif[at] + 1
    return at + 1
