#!/usr/bin/env python3
"""Writes a copy of a GGUF model with its Q4_1 tensors requantized to Q8_0 or Q4_0.

For the quantization bench (main/models/quantization.smollm2.bench.ts): the test model ships
as Q4_1 only, and llama.cpp's fast CPU matrix path (llamafile's sgemm) takes Q8_0 and Q4_0 but
not Q4_1, so the bench needs the same weights in another type. Q4_1 dequantized and stored as
Q8_0 keeps its values to 8-bit precision; Q4_0 rounds them again (a lossier model: its speed is
meaningful, its text less so). Metadata is copied; `general.file_type` names the new type.

Needs numpy and gguf-py (`pip install gguf`). Exit code 3 when gguf-py is missing.
Usage: python3 scripts/requantize-gguf.py SRC.gguf DST.gguf Q8_0|Q4_0
"""
import sys

try:
    import numpy as np
    import gguf
    from gguf import GGMLQuantizationType as Q
except ImportError as error:
    print(f"requantize-gguf: {error}; install it with: pip install gguf numpy", file=sys.stderr)
    sys.exit(3)

FILE_TYPES = {"Q8_0": 7, "Q4_0": 2}


def main(src: str, dst: str, target_name: str) -> None:
    if target_name not in FILE_TYPES:
        sys.exit(f"requantize-gguf: target must be one of {', '.join(FILE_TYPES)}, not {target_name}")
    target = Q[target_name]
    reader = gguf.GGUFReader(src)
    writer = gguf.GGUFWriter(dst, reader.fields["general.architecture"].contents())
    for name, field in reader.fields.items():
        if name.startswith("GGUF.") or name == "general.architecture":
            continue  # written by the writer itself
        if name == "general.file_type":
            writer.add_uint32(name, FILE_TYPES[target_name])
            continue
        kind = field.types[0]
        if kind == gguf.GGUFValueType.ARRAY:
            writer.add_key_value(name, field.contents(), kind, sub_type=field.types[-1])
        else:
            writer.add_key_value(name, field.contents(), kind)
    for tensor in reader.tensors:
        data = np.array(tensor.data)
        if tensor.tensor_type == Q.Q4_1:
            weights = gguf.quants.dequantize(data, Q.Q4_1)
            writer.add_tensor(tensor.name, gguf.quants.quantize(weights, target), raw_dtype=target)
        else:
            writer.add_tensor(tensor.name, data, raw_dtype=tensor.tensor_type)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
