#!/usr/bin/env python3
"""Reference sentence embeddings for all-MiniLM-L6-v2, computed with numpy alone.

An independent check of the ONNX graph that `npm run models:test` writes from the same
weights: its own safetensors reader, its own BERT WordPiece tokenizer (from vocab.txt), and
the BERT encoder forward pass in float64, then mean pooling and L2 normalisation (what
sentence-transformers does for this model). It shares no code with the TypeScript converter.

Usage: python3 scripts/minilm-reference.py MODEL_DIR < sentences.json > reference.json
MODEL_DIR holds model.safetensors, vocab.txt and config.json. stdin is a JSON list of
sentences; stdout is {"sentences": [...], "tokenIds": [[...]], "vectors": [[...]]}.
"""
import json
import math
import os
import struct
import sys
import unicodedata

import numpy as np


def read_safetensors(path):
    with open(path, "rb") as f:
        data = f.read()
    (header_length,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8 : 8 + header_length])
    header.pop("__metadata__", None)
    start = 8 + header_length
    tensors = {}
    for name, entry in header.items():
        if entry["dtype"] != "F32":
            continue
        begin, end = entry["data_offsets"]
        array = np.frombuffer(data[start + begin : start + end], dtype="<f4")
        tensors[name] = array.reshape(entry["shape"]).astype(np.float64)
    return tensors


# --- BERT tokenizer (BasicTokenizer + WordPiece, uncased), as in Google's original BERT ----


def is_punctuation(char):
    code = ord(char)
    if 33 <= code <= 47 or 58 <= code <= 64 or 91 <= code <= 96 or 123 <= code <= 126:
        return True
    return unicodedata.category(char).startswith("P")


def is_control(char):
    if char in "\t\n\r":
        return False
    return unicodedata.category(char) in ("Cc", "Cf")


def is_whitespace(char):
    return char in " \t\n\r" or unicodedata.category(char) == "Zs"


def is_cjk(code):
    return (
        0x4E00 <= code <= 0x9FFF
        or 0x3400 <= code <= 0x4DBF
        or 0x20000 <= code <= 0x2A6DF
        or 0x2A700 <= code <= 0x2B73F
        or 0x2B740 <= code <= 0x2B81F
        or 0x2B820 <= code <= 0x2CEAF
        or 0xF900 <= code <= 0xFAFF
        or 0x2F800 <= code <= 0x2FA1F
    )


def basic_tokens(text):
    cleaned = []
    for char in text:
        code = ord(char)
        if code == 0 or code == 0xFFFD or is_control(char):
            continue
        if is_cjk(code):
            cleaned.append(" " + char + " ")
        elif is_whitespace(char):
            cleaned.append(" ")
        else:
            cleaned.append(char)
    words = []
    for word in "".join(cleaned).split():
        word = unicodedata.normalize("NFD", word.lower())
        word = "".join(c for c in word if unicodedata.category(c) != "Mn")
        current = ""
        for char in word:
            if is_punctuation(char):
                if current:
                    words.append(current)
                words.append(char)
                current = ""
            else:
                current += char
        if current:
            words.append(current)
    return words


def wordpiece(word, vocab):
    if len(word) > 100:
        return ["[UNK]"]
    pieces = []
    start = 0
    while start < len(word):
        end = len(word)
        piece = None
        while start < end:
            candidate = word[start:end] if start == 0 else "##" + word[start:end]
            if candidate in vocab:
                piece = candidate
                break
            end -= 1
        if piece is None:
            return ["[UNK]"]
        pieces.append(piece)
        start = end
    return pieces


def tokenize(text, vocab):
    tokens = ["[CLS]"]
    for word in basic_tokens(text):
        tokens.extend(wordpiece(word, vocab))
    tokens.append("[SEP]")
    return [vocab[token] for token in tokens]


# --- BERT encoder ---------------------------------------------------------------------------


def layer_norm(x, weight, bias, eps):
    mean = x.mean(axis=-1, keepdims=True)
    variance = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(variance + eps) * weight + bias


def erf(x):
    return np.vectorize(math.erf)(x)


def encode(ids, w, config):
    hidden = config["hidden_size"]
    heads = config["num_attention_heads"]
    head_size = hidden // heads
    eps = config["layer_norm_eps"]
    n = len(ids)
    x = (
        w["embeddings.word_embeddings.weight"][ids]
        + w["embeddings.position_embeddings.weight"][:n]
        + w["embeddings.token_type_embeddings.weight"][0]
    )
    x = layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], eps)

    def linear(h, name):
        return h @ w[name + ".weight"].T + w[name + ".bias"]

    for layer in range(config["num_hidden_layers"]):
        p = "encoder.layer.%d." % layer

        def split(h):
            return h.reshape(n, heads, head_size).transpose(1, 0, 2)

        q = split(linear(x, p + "attention.self.query"))
        k = split(linear(x, p + "attention.self.key"))
        v = split(linear(x, p + "attention.self.value"))
        scores = q @ k.transpose(0, 2, 1) / math.sqrt(head_size)
        scores = scores - scores.max(axis=-1, keepdims=True)
        probabilities = np.exp(scores)
        probabilities /= probabilities.sum(axis=-1, keepdims=True)
        context = (probabilities @ v).transpose(1, 0, 2).reshape(n, hidden)
        attended = layer_norm(
            linear(context, p + "attention.output.dense") + x,
            w[p + "attention.output.LayerNorm.weight"],
            w[p + "attention.output.LayerNorm.bias"],
            eps,
        )
        inner = linear(attended, p + "intermediate.dense")
        activated = inner * 0.5 * (1.0 + erf(inner / math.sqrt(2.0)))
        x = layer_norm(
            linear(activated, p + "output.dense") + attended,
            w[p + "output.LayerNorm.weight"],
            w[p + "output.LayerNorm.bias"],
            eps,
        )
    return x


def main():
    model_dir = sys.argv[1]
    with open(os.path.join(model_dir, "config.json")) as f:
        config = json.load(f)
    with open(os.path.join(model_dir, "vocab.txt"), encoding="utf-8") as f:
        vocab = {line.rstrip("\n"): index for index, line in enumerate(f)}
    weights = read_safetensors(os.path.join(model_dir, "model.safetensors"))
    sentences = json.load(sys.stdin)
    token_ids, vectors = [], []
    for sentence in sentences:
        ids = tokenize(sentence, vocab)
        pooled = encode(ids, weights, config).mean(axis=0)  # one sentence: no padding to mask
        token_ids.append(ids)
        vectors.append((pooled / np.linalg.norm(pooled)).tolist())
    json.dump({"sentences": sentences, "tokenIds": token_ids, "vectors": vectors}, sys.stdout)


if __name__ == "__main__":
    main()
