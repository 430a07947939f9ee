(** * Large data sets, packed: many small integers per primitive 63-bit word.

    Coq reads a list of 400 000 integer literals slowly (about 0.1 ms each); a certificate of
    a large data set therefore writes its rows as words of [per] fields of [width] bits each
    (first field in the most significant bits; a field holds the entry plus [offset], so it is
    non-negative), and [packed_rows] unpacks them by computation.  Nothing is assumed about
    the packing: the statements speak about [rows], whatever it computes to, and
    [pla audit FILE.v --data DATA] checks that the packed words are those of DATA. *)

From Coq Require Import ZArith List PrimInt63 Uint63.
From PLA Require Import Certificates.
Import ListNotations.

(** The [k] fields of word [x] (low [k * width] bits), most significant first, each minus
    [offset], in front of [acc]. *)
Fixpoint unpack_word (width : int) (offset : Z) (k : nat) (x : int) (acc : list Z) : list Z :=
  match k with
  | O => acc
  | S k' => unpack_word width offset k' (PrimInt63.lsr x width)
              ((Uint63.to_Z (PrimInt63.land x (PrimInt63.sub (PrimInt63.lsl 1%uint63 width) 1%uint63)) - offset)%Z :: acc)
  end.

(** One row of [d] entries from its words. *)
Definition unpack_row (width : int) (per : nat) (offset : Z) (d : nat) (words : list int)
  : list Z :=
  firstn d (flat_map (fun x => unpack_word width offset per x []) words).

(** The rows (with their labels) of a packed data set. *)
Definition packed_rows (width : int) (per : nat) (offset : Z) (d : nat)
  (words : list (list int)) (labels : list Z) : list zrow :=
  combine (map (unpack_row width per offset d) words) labels.
