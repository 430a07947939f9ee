(** * What a claim file of [pla claims --coq DIR] needs besides the inner-product space.

    [psum f a T] is f(a) + f(a + 1) + ... + f(a + T - 1), the sum of T terms: the claim
    [Sum(f, (k, a, n))] for an integer n >= a - 1 is [psum f a T] with [INR T = n - a + 1].
    The tactics only search; every step they take is checked by Coq. *)

From Coq Require Import Reals Lra Psatz Lia.
From PLA Require Import InnerProduct.
Open Scope R_scope.

Fixpoint psum (f : R -> R) (a : R) (T : nat) : R :=
  match T with
  | O => 0
  | S t => psum f a t + f (a + INR t)
  end.

(** Every [Rabs e] of the goal: the two cases e >= 0 and e < 0. *)
Ltac abs_cases :=
  repeat match goal with
  | |- context [Rabs ?x] =>
      destruct (Rle_or_lt 0 x);
      [rewrite (Rabs_right x) by lra | rewrite (Rabs_left x) by lra]
  end.

(** The square of a nonzero number (a denominator only assumed [<> 0]) is > 0. *)
Lemma square_pos : forall x, x <> 0 -> 0 < x ^ 2.
Proof. intros x H. pose proof (Rsqr_pos_lt x H). unfold Rsqr in *. nra. Qed.

(** A product and a power of facts > 0 (or < 0, negated) is > 0, and so is a square of a
    fact <> 0. *)
Ltac positive :=
  repeat first [ apply square_pos | apply Rmult_lt_0_compat | apply pow_lt ];
  first [ lra | nra ].

(** Every [e ^ 2] of the goal is >= 0, as a hypothesis [nra] can multiply (once each). *)
Ltac squares_nonneg :=
  repeat match goal with
  | |- context [?e ^ 2] =>
      lazymatch goal with
      | _ : 0 <= e ^ 2 |- _ => fail
      | _ => pose proof (pow2_ge_0 e)
      end
  end.

(** Every [x ^ k] of the goal whose base [lra] shows >= 0 is >= 0 ([pow_le]): the invariant
    [x ^ n >= 0] a stronger induction hypothesis carries ([a ^ n <= b ^ n] for [0 <= a <= b]). *)
Ltac powers_nonneg :=
  repeat match goal with
  | |- context [?x ^ ?k] =>
      lazymatch goal with
      | _ : 0 <= x ^ k |- _ => fail
      | _ => assert (0 <= x ^ k) by (apply pow_le; lra)
      end
  end.

(** A sum, product or quotient of positive parts is positive ([0 < 1/a + 1/b] from [a > 0],
    [b > 0]): the domain of [2/(1/a + 1/b)]. *)
Ltac positive_parts :=
  repeat first [ apply Rplus_lt_0_compat | apply Rmult_lt_0_compat | apply Rdiv_lt_0_compat
               | apply Rinv_0_lt_compat ]; lra.

Ltac claim_close :=
  first [ lra | nra | (field; nonzero) | (abs_cases; nra) | (squares_nonneg; abs_cases; nra)
        | positive_parts ].

(** [ipow x k] is [x ^ k] for a natural number [k] given as a real: a power of a sum's index
    ([Sum(r**k, (k, 0, n))] is [psum (fun k => ipow r k) 0 T]). *)
Definition ipow (x k : R) : R := x ^ Z.to_nat (up k - 1).

Lemma ipow_nat : forall x (m : nat) k, k = INR m -> ipow x k = x ^ m.
Proof.
  intros x m k Hk. subst k. unfold ipow. rewrite INR_IZR_INZ.
  assert (H : up (IZR (Z.of_nat m)) = (Z.of_nat m + 1)%Z).
  { symmetry. apply tech_up; rewrite plus_IZR; lra. }
  rewrite H. replace (Z.of_nat m + 1 - 1)%Z with (Z.of_nat m) by ring.
  rewrite Nat2Z.id. reflexivity.
Qed.

(** The geometric sum, any start [m]: [(1 - r) * (c r^m + ... + c r^(m+T-1)) = c (r^m - r^(m+T))]. *)
Lemma psum_geometric : forall (f : R -> R) (c r a : R) (m T : nat),
  a = INR m -> (forall k, f k = c * ipow r k) ->
  (1 - r) * psum f a T = c * (r ^ m - r ^ (m + T)).
Proof.
  intros f c r a m T Ha Hf. induction T as [|t IH].
  - simpl. rewrite Nat.add_0_r. ring.
  - cbn [psum]. rewrite Hf, (ipow_nat r (m + t)) by (rewrite plus_INR; lra).
    replace (m + S t)%nat with (S (m + t)) by lia. simpl pow.
    rewrite Rmult_plus_distr_l, IH. ring.
Qed.

(** A bound on a sum from its closed form [G : d * psum f a T = ...] with [0 < d] (the bound of
    [Sum(r**k, (k, 0, n))] by [1/(1 - r)]): both sides times [d]. *)
Ltac geometric_close :=
  match goal with
  | G : (?d * psum ?f ?a ?T = _) |- psum ?f ?a ?T <= _ =>
      apply (Rmult_le_reg_l d); [ lra | rewrite G; field_simplify; [ nra | lra .. ] ]
  | G : (?d * psum ?f ?a ?T = _) |- psum ?f ?a ?T >= _ =>
      apply Rle_ge; apply (Rmult_le_reg_l d); [ lra | rewrite G; field_simplify; [ nra | lra .. ] ]
  end.

(** The goal's sum is [c r^m + ... ]: its closed form, [r ^ (m + T) >= 0], then the bound. *)
Ltac geometric_bound c r m :=
  match goal with
  | |- context [psum ?f ?a ?T] =>
      pose proof (psum_geometric f c r a m T ltac:(simpl; lra) ltac:(intro; cbv beta; ring))
        as G;
      pose proof (pow_le r (m + T) ltac:(lra));
      cbn [Nat.add pow] in *; geometric_close
  end.

(** Cauchy–Schwarz in any real inner-product space, proved as the kernel proves it: by cases
    on dot v v (when it is 0, (dot u u + 2) (dot u u dot v v - (dot u v)^2) is
    dot w w - dot v v with w = (dot u v) u - (dot u u + 1) v; when it is > 0,
    dot v v (dot u u dot v v - (dot u v)^2) is dot w w with w = (dot v v) u - (dot u v) v). *)
Section Norms.
  Context {V : Type} {IP : InnerProductSpace V}.

  Lemma cauchy_schwarz : forall u v, dot u v ^ 2 <= dot u u * dot v v.
  Proof.
    intros u v. pose proof (dot_nonneg u) as Hu.
    destruct (Rle_or_lt (dot v v) 0) as [Hz | Hp].
    - pose proof (dot_nonneg (vadd (vscale (dot u v) u) (vscale (- (dot u u + 1)) v))) as H.
      repeat first [ rewrite dot_add_l in H | rewrite dot_add_r in H
                   | rewrite dot_scale_l in H | rewrite dot_scale_r in H ].
      rewrite (dot_sym v u) in H.
      apply (by_certificate_le (dot u u + 2)); [ lra | nra ].
    - pose proof (dot_nonneg (vadd (vscale (dot v v) u) (vscale (- dot u v) v))) as H.
      repeat first [ rewrite dot_add_l in H | rewrite dot_add_r in H
                   | rewrite dot_scale_l in H | rewrite dot_scale_r in H ].
      rewrite (dot_sym v u) in H.
      apply (by_certificate_le (dot v v)); [ lra | nra ].
  Qed.

  (** Its root form, both signs: |dot u v| <= norm u * norm v with norm u = sqrt (dot u u). *)
  Lemma norms_above_dot : forall u v,
    dot u v <= sqrt (dot u u) * sqrt (dot v v) /\ - dot u v <= sqrt (dot u u) * sqrt (dot v v).
  Proof.
    intros u v.
    assert (H : Rabs (dot u v) <= sqrt (dot u u) * sqrt (dot v v)).
    { rewrite <- sqrt_mult by apply dot_nonneg. rewrite <- sqrt_Rsqr_abs.
      apply sqrt_le_1_alt. unfold Rsqr. pose proof (cauchy_schwarz u v). nra. }
    split; eapply Rle_trans; [ apply Rle_abs | exact H | | exact H ].
    rewrite <- Rabs_Ropp. apply Rle_abs.
  Qed.
End Norms.
