(** * An abstract real inner-product space, for the exported kernel theorems.

    The kernel of pla-verify reasons about vectors only through an inner product that is
    bilinear, symmetric and non-negative on the diagonal; the class below asks for exactly that
    (plus the zero vector, 0 v = 0).  A theorem proven in a Section with [Context {V : Type}
    {IP : InnerProductSpace V}] holds in every real inner-product space, of any dimension. *)

From Coq Require Import Reals Lra Psatz.
Open Scope R_scope.

Class InnerProductSpace (V : Type) := {
  vadd : V -> V -> V;
  vscale : R -> V -> V;
  vzero : V;
  dot : V -> V -> R;
  dot_add_l : forall u v z, dot (vadd u v) z = dot u z + dot v z;
  dot_scale_l : forall c u z, dot (vscale c u) z = c * dot u z;
  dot_sym : forall u v, dot u v = dot v u;
  dot_nonneg : forall v, 0 <= dot v v;
  scale_zero : forall u, vscale 0 u = vzero
}.

Section Facts.
  Context {V : Type} {IP : InnerProductSpace V}.

  Lemma dot_add_r : forall u v z, dot z (vadd u v) = dot z u + dot z v.
  Proof. intros. rewrite !(dot_sym z). apply dot_add_l. Qed.

  Lemma dot_scale_r : forall c u z, dot z (vscale c u) = c * dot z u.
  Proof. intros. rewrite !(dot_sym z). apply dot_scale_l. Qed.

  Lemma dot_zero_l : forall v, dot vzero v = 0.
  Proof. intros. rewrite <- (scale_zero v), dot_scale_l. ring. Qed.

  Lemma dot_zero_r : forall v, dot v vzero = 0.
  Proof. intros. rewrite dot_sym. apply dot_zero_l. Qed.
End Facts.

(** The kernel's certificate rule: p (b - a) >= 0 with p > 0 gives a <= b (and so on). *)
Lemma by_certificate_le : forall p a b, 0 < p -> 0 <= p * (b - a) -> a <= b.
Proof. intros p a b Hp H. destruct (Rle_or_lt a b) as [L|L]; [exact L|]. nra. Qed.

Lemma by_certificate_lt : forall p a b, 0 < p -> 0 < p * (b - a) -> a < b.
Proof. intros p a b Hp H. destruct (Rle_or_lt b a) as [L|L]; [|exact L]. nra. Qed.

Lemma by_certificate_eq : forall p a b, 0 < p -> p * (b - a) = 0 -> a = b.
Proof.
  intros p a b Hp H. apply Rmult_integral in H. destruct H as [H|H]; [lra | lra].
Qed.

(** Bilinearity: push every inner product down to inner products of atoms. *)
Ltac ip_expand :=
  repeat first [ rewrite dot_add_l | rewrite dot_add_r | rewrite dot_scale_l
               | rewrite dot_scale_r | rewrite dot_zero_l | rewrite dot_zero_r ].

(** Side conditions of [field]: a product or power of facts > 0 is not 0. *)
Ltac nonzero :=
  match goal with
  | |- _ /\ _ => split; nonzero
  | |- ?a * ?b <> 0 => apply Rmult_integral_contrapositive_currified; nonzero
  | |- ?a ^ _ <> 0 => apply pow_nonzero; nonzero
  | |- _ => first [ lra | nra ]
  end.

(** A natural number is non-negative as a real. *)
Lemma natural_nonneg : forall n : nat, INR n >= 0.
Proof. intros. apply Rle_ge, pos_INR. Qed.

(** Hypotheses of a lemma use, and a theorem's conclusions, from the facts in context. *)
Ltac solve_hyp := first [ assumption | lra | (intros; lra) | nra ].
Ltac solve_goal := first [ assumption | lra | nra ].
