(** * Large data sets, packed: the entries as bytes, 64 bytes to a word.

    Coq reads a list of 400 000 integer literals slowly (about 0.1 ms each, most of it for the
    list element, the rest for the numeral); a certificate of a large data set therefore writes
    each row as a list of words [W b0 ... b63] of 64 bytes ([x00] ... [xff], the constructors of
    the standard library's inductive type [byte]), each entry as [k] bytes, most significant
    first, of the entry plus [offset] (so non-negative); the last word of a row is filled up
    with [x00].  [packed_rows] unpacks them by computation.

    Everything here is an ordinary definition over inductive types: no primitive integers, no
    axiom, so [Print Assumptions] of a packed certificate stays closed.  Nothing is assumed
    about the packing either: the statements speak about [rows], whatever it computes to, and
    [pla audit FILE.v --data DATA] checks that the words are those of DATA. *)

From Coq Require Import ZArith List.
From Coq Require Export Init.Byte.
From Coq Require Strings.Byte.
From PLA Require Import Certificates.
Import ListNotations.

(** Sixty-four bytes (one application of [W] is read much faster than 64 list elements). *)
Inductive word : Set :=
  W : forall b0 b1 b2 b3 b4 b5 b6 b7 b8 b9 b10 b11 b12 b13 b14 b15 b16 b17 b18 b19 b20 b21
        b22 b23 b24 b25 b26 b27 b28 b29 b30 b31 b32 b33 b34 b35 b36 b37 b38 b39 b40 b41 b42
        b43 b44 b45 b46 b47 b48 b49 b50 b51 b52 b53 b54 b55 b56 b57 b58 b59 b60 b61 b62 b63
        : byte, word.

(** The bytes of a word, in order. *)
Definition word_bytes (x : word) : list byte :=
  match x with
  | W b0 b1 b2 b3 b4 b5 b6 b7 b8 b9 b10 b11 b12 b13 b14 b15 b16 b17 b18 b19 b20 b21 b22 b23
      b24 b25 b26 b27 b28 b29 b30 b31 b32 b33 b34 b35 b36 b37 b38 b39 b40 b41 b42 b43 b44
      b45 b46 b47 b48 b49 b50 b51 b52 b53 b54 b55 b56 b57 b58 b59 b60 b61 b62 b63 =>
    [b0; b1; b2; b3; b4; b5; b6; b7; b8; b9; b10; b11; b12; b13; b14; b15; b16; b17; b18;
     b19; b20; b21; b22; b23; b24; b25; b26; b27; b28; b29; b30; b31; b32; b33; b34; b35;
     b36; b37; b38; b39; b40; b41; b42; b43; b44; b45; b46; b47; b48; b49; b50; b51; b52;
     b53; b54; b55; b56; b57; b58; b59; b60; b61; b62; b63]
  end.

(** The value of bytes [bs], most significant first. *)
Definition bytes_value (bs : list byte) : Z :=
  fold_left (fun acc b => (acc * 256 + Z.of_N (Byte.to_N b))%Z) bs 0%Z.

(** [d] entries of [k] bytes each, each minus [offset]. *)
Fixpoint entries (k : nat) (offset : Z) (d : nat) (bs : list byte) : list Z :=
  match d with
  | O => []
  | S d' => (bytes_value (firstn k bs) - offset)%Z :: entries k offset d' (skipn k bs)
  end.

(** One row of [d] entries from its words. *)
Definition unpack_row (k : nat) (offset : Z) (d : nat) (words : list word) : list Z :=
  entries k offset d (flat_map word_bytes words).

(** The rows (with their labels) of a packed data set. *)
Definition packed_rows (k : nat) (offset : Z) (d : nat) (words : list (list word))
  (labels : list Z) : list zrow :=
  combine (map (unpack_row k offset d) words) labels.
