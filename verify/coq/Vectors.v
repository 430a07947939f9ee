(** * Vectors over Q: lists of rationals, read with zero padding.

    A vector is a list of rationals; a missing coordinate counts as 0, so lists of every length
    live in one space (the rational sequences with finitely many non-zero terms) and the
    inner product is bilinear and symmetric with no length side-conditions. *)

From Coq Require Import QArith List Lqa.
Import ListNotations.
Open Scope Q_scope.

Definition vec := list Q.

(** The zero vector. *)
Definition zero_vector : vec := [].

(** Coordinate-wise sum; the longer list keeps its tail (the shorter one is padded with 0). *)
Fixpoint vadd (u v : vec) : vec :=
  match u, v with
  | [], _ => v
  | _, [] => u
  | a :: u', b :: v' => (a + b) :: vadd u' v'
  end.

(** Scalar multiple. *)
Definition vscale (c : Q) (u : vec) : vec := map (fun a => c * a) u.

(** Inner product (missing coordinates are 0). *)
Fixpoint dot (u v : vec) : Q :=
  match u, v with
  | a :: u', b :: v' => a * b + dot u' v'
  | _, _ => 0
  end.

(** Squared Euclidean norm. *)
Definition norm2 (u : vec) : Q := dot u u.

Lemma dot_nil_l : forall v, dot [] v == 0.
Proof. reflexivity. Qed.

Lemma dot_nil_r : forall u, dot u [] == 0.
Proof. intros [|a u]; reflexivity. Qed.

Lemma dot_sym : forall u v, dot u v == dot v u.
Proof.
  induction u as [|a u IH]; intros [|b v]; simpl; try reflexivity.
  rewrite IH. ring.
Qed.

Lemma dot_add_l : forall u v z, dot (vadd u v) z == dot u z + dot v z.
Proof.
  induction u as [|a u IH]; intros [|b v] [|c z]; simpl; try ring.
  rewrite IH. ring.
Qed.

Lemma dot_add_r : forall u v z, dot z (vadd u v) == dot z u + dot z v.
Proof. intros. rewrite !(dot_sym z). apply dot_add_l. Qed.

Lemma dot_scale_l : forall c u z, dot (vscale c u) z == c * dot u z.
Proof.
  intros c. induction u as [|a u IH]; intros [|b z]; simpl; try ring.
  unfold vscale in IH. rewrite IH. ring.
Qed.

Lemma dot_scale_r : forall c u z, dot z (vscale c u) == c * dot z u.
Proof. intros. rewrite !(dot_sym z). apply dot_scale_l. Qed.

Lemma norm2_nonneg : forall u, 0 <= norm2 u.
Proof.
  unfold norm2. induction u as [|a u IH]; simpl.
  - apply Qle_refl.
  - nra.
Qed.

(** Cauchy-Schwarz, from the non-negativity of three squared norms only:
    F (F W - D^2) = ||F w - D f||^2, W (F W - D^2) = ||W f - D w||^2, and when F = W = 0,
    ||f + w||^2 = 2 D >= 0 and ||f - w||^2 = -2 D >= 0. *)
Theorem cauchy_schwarz : forall f w, dot f w * dot f w <= norm2 f * norm2 w.
Proof.
  intros f w. unfold norm2.
  set (F := dot f f). set (W := dot w w). set (D := dot f w).
  assert (HF : 0 <= F) by apply norm2_nonneg.
  assert (HW : 0 <= W) by apply norm2_nonneg.
  assert (E1 : norm2 (vadd (vscale F w) (vscale (- D) f)) == F * (F * W - D * D)).
  { unfold norm2. rewrite !dot_add_l, !dot_add_r, !dot_scale_l, !dot_scale_r.
    rewrite (dot_sym w f). fold F W D. ring. }
  assert (E2 : norm2 (vadd (vscale W f) (vscale (- D) w)) == W * (F * W - D * D)).
  { unfold norm2. rewrite !dot_add_l, !dot_add_r, !dot_scale_l, !dot_scale_r.
    rewrite (dot_sym w f). fold F W D. ring. }
  assert (E3 : norm2 (vadd f w) == F + 2 * D + W).
  { unfold norm2. rewrite !dot_add_l, !dot_add_r. rewrite (dot_sym w f). fold F W D. ring. }
  assert (E4 : norm2 (vadd f (vscale (-1) w)) == F - 2 * D + W).
  { unfold norm2. rewrite !dot_add_l, !dot_add_r, !dot_scale_l, !dot_scale_r.
    rewrite (dot_sym w f). fold F W D. ring. }
  pose proof (norm2_nonneg (vadd (vscale F w) (vscale (- D) f))) as N1.
  pose proof (norm2_nonneg (vadd (vscale W f) (vscale (- D) w))) as N2.
  pose proof (norm2_nonneg (vadd f w)) as N3.
  pose proof (norm2_nonneg (vadd f (vscale (-1) w))) as N4.
  rewrite E1 in N1. rewrite E2 in N2. rewrite E3 in N3. rewrite E4 in N4.
  destruct (Qlt_le_dec 0 F) as [F0 | F0].
  - assert (0 <= F * W - D * D).
    { destruct (Qlt_le_dec (F * W - D * D) 0) as [Hn|Hn]; [|exact Hn].
      exfalso. assert (F * (F * W - D * D) < 0) by nra. lra. }
    lra.
  - destruct (Qlt_le_dec 0 W) as [W0 | W0].
    + assert (0 <= F * W - D * D).
      { destruct (Qlt_le_dec (F * W - D * D) 0) as [Hn|Hn]; [|exact Hn].
        exfalso. assert (W * (F * W - D * D) < 0) by nra. lra. }
      lra.
    + assert (F == 0) by lra. assert (W == 0) by lra. assert (D == 0) by lra.
      rewrite H, H0, H1. lra.
Qed.
