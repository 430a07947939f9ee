(** * Certificates about a concrete data set, checked by computation.

    The data are kept as pla-verify keeps them: integer rows over one common positive scale
    (x = row / scale) and integer labels.  Each boolean checker below computes in Z (so that
    [vm_compute] is fast) and is proven correct against the definitions of [Vectors] and
    [Perceptron]; a certificate file states its theorems with those definitions and proves them
    by applying a correctness lemma and running the checker. *)

From Coq Require Import QArith List Lqa Lia ZArith Bool.
From PLA Require Import Vectors Perceptron.
Import ListNotations.
Open Scope Q_scope.

Definition zrow := (list Z * Z)%type.

(** The rational vector zs / d. *)
Definition qvec (d : positive) (zs : list Z) : vec := map (fun z => z # d) zs.

(** Row r = (integers, label) as the example (integers / s, label). *)
Definition to_example (s : positive) (r : zrow) : example := (qvec s (fst r), inject_Z (snd r)).

(** The data set with rows over the common scale s. *)
Definition dataset (s : positive) (rs : list zrow) : list example := map (to_example s) rs.

Fixpoint zdot (u v : list Z) : Z :=
  match u, v with
  | a :: u', b :: v' => (a * b + zdot u' v')%Z
  | _, _ => 0%Z
  end.

Lemma Qmake_add : forall p q d, (p # d) + (q # d) == (p + q) # d.
Proof. intros. unfold Qeq, Qplus; simpl. rewrite Pos2Z.inj_mul. ring. Qed.

Lemma dot_qvec : forall a b u v, dot (qvec a u) (qvec b v) == zdot u v # (a * b).
Proof.
  intros a b. induction u as [|x u IH]; intros [|y v]; simpl; try reflexivity.
  rewrite IH. change ((x # a) * (y # b)) with ((x * y) # (a * b)). apply Qmake_add.
Qed.

Lemma inject_Z_mul_make : forall y k q, inject_Z y * (k # q) == (y * k) # q.
Proof. intros. unfold Qeq; simpl. ring. Qed.

Lemma in_dataset : forall s rs e, In e (dataset s rs) -> exists r, e = to_example s r /\ In r rs.
Proof. intros s rs e H. apply in_map_iff in H. destruct H as [r [<- Hr]]. eauto. Qed.

(** Strict comparison as a boolean. *)
Definition Qltb (x y : Q) : bool := negb (Qle_bool y x).

Lemma Qltb_correct : forall x y, Qltb x y = true -> x < y.
Proof.
  intros x y H. unfold Qltb in H. apply negb_true_iff in H.
  apply Qnot_le_lt. intro C. apply Qle_bool_iff in C. congruence.
Qed.

(** ** Labels *)
Definition check_labels (rs : list zrow) : bool :=
  forallb (fun r => (snd r =? 1)%Z || (snd r =? -1)%Z) rs.

Theorem check_labels_correct : forall s rs, check_labels rs = true -> labels_pm1 (dataset s rs).
Proof.
  intros s rs H e He. apply in_dataset in He. destruct He as [r [-> Hr]].
  unfold check_labels in H. rewrite forallb_forall in H. specialize (H r Hr).
  apply orb_true_iff in H. simpl.
  destruct H as [H|H]; apply Z.eqb_eq in H; rewrite H; [left|right]; reflexivity.
Qed.

(** ** Separation with a margin *)

(** y w.x for w = W / d and x = row / s, computed in Z. *)
Definition score (s d : positive) (W : list Z) (r : zrow) : Q := (snd r * zdot W (fst r)) # (d * s).

Lemma score_correct : forall s d W r,
  snd (to_example s r) * dot (qvec d W) (fst (to_example s r)) == score s d W r.
Proof.
  intros. unfold to_example, score. simpl. rewrite dot_qvec. apply inject_Z_mul_make.
Qed.

Definition check_margin (s : positive) (rs : list zrow) (d : positive) (W : list Z) (rho : Q) : bool :=
  Qltb 0 rho && forallb (fun r => Qle_bool rho (score s d W r)) rs.

Theorem check_margin_correct : forall s rs d W rho,
  check_margin s rs d W rho = true -> margin_at_least (dataset s rs) (qvec d W) rho.
Proof.
  intros s rs d W rho H. unfold check_margin in H. apply andb_true_iff in H. destruct H as [H0 H].
  split; [apply Qltb_correct; exact H0|].
  intros e He. apply in_dataset in He. destruct He as [r [-> Hr]].
  rewrite forallb_forall in H. specialize (H r Hr). apply Qle_bool_iff in H.
  rewrite score_correct. exact H.
Qed.

(** rho is attained: it is the minimum margin, not only a lower bound. *)
Definition margin_attained (data : list example) (w : vec) (rho : Q) : Prop :=
  exists e, In e data /\ snd e * dot w (fst e) == rho.

Definition check_margin_attained (s : positive) (rs : list zrow) (d : positive) (W : list Z) (rho : Q) : bool :=
  existsb (fun r => Qeq_bool (score s d W r) rho) rs.

Theorem check_margin_attained_correct : forall s rs d W rho,
  check_margin_attained s rs d W rho = true -> margin_attained (dataset s rs) (qvec d W) rho.
Proof.
  intros s rs d W rho H. apply existsb_exists in H. destruct H as [r [Hr H]].
  apply Qeq_bool_iff in H. exists (to_example s r). split; [apply in_map; exact Hr|].
  rewrite score_correct. exact H.
Qed.

(** ** The radius *)
Definition sqnorm (s : positive) (r : zrow) : Q := zdot (fst r) (fst r) # (s * s).

Lemma sqnorm_correct : forall s r, norm2 (fst (to_example s r)) == sqnorm s r.
Proof. intros. unfold norm2, to_example, sqnorm. simpl. apply dot_qvec. Qed.

Definition check_radius (s : positive) (rs : list zrow) (R2 : Q) : bool :=
  Qle_bool 0 R2 && forallb (fun r => Qle_bool (sqnorm s r) R2) rs.

Theorem check_radius_correct : forall s rs R2,
  check_radius s rs R2 = true -> radius2_at_most (dataset s rs) R2.
Proof.
  intros s rs R2 H. unfold check_radius in H. apply andb_true_iff in H. destruct H as [H0 H].
  split; [apply Qle_bool_iff; exact H0|].
  intros e He. apply in_dataset in He. destruct He as [r [-> Hr]].
  rewrite forallb_forall in H. specialize (H r Hr). apply Qle_bool_iff in H.
  rewrite sqnorm_correct. exact H.
Qed.

(** R2 is attained: it is the largest squared norm. *)
Definition radius_attained (data : list example) (R2 : Q) : Prop :=
  exists e, In e data /\ norm2 (fst e) == R2.

Definition check_radius_attained (s : positive) (rs : list zrow) (R2 : Q) : bool :=
  existsb (fun r => Qeq_bool (sqnorm s r) R2) rs.

Theorem check_radius_attained_correct : forall s rs R2,
  check_radius_attained s rs R2 = true -> radius_attained (dataset s rs) R2.
Proof.
  intros s rs R2 H. apply existsb_exists in H. destruct H as [r [Hr H]].
  apply Qeq_bool_iff in H. exists (to_example s r). split; [apply in_map; exact Hr|].
  rewrite sqnorm_correct. exact H.
Qed.

(** ** Each of the two above in one pass: the scores (squared norms) computed once *)
Lemma forallb_map_fuse : forall (A B : Type) (f : B -> bool) (g : A -> B) (l : list A),
  forallb f (map g l) = forallb (fun x => f (g x)) l.
Proof. intros A B f g l. induction l as [|x l IH]; simpl; [reflexivity | now rewrite IH]. Qed.

Lemma existsb_map_fuse : forall (A B : Type) (f : B -> bool) (g : A -> B) (l : list A),
  existsb f (map g l) = existsb (fun x => f (g x)) l.
Proof. intros A B f g l. induction l as [|x l IH]; simpl; [reflexivity | now rewrite IH]. Qed.

Definition check_margin_exact (s : positive) (rs : list zrow) (d : positive) (W : list Z) (rho : Q) : bool :=
  let scores := map (score s d W) rs in
  Qltb 0 rho && forallb (fun x => Qle_bool rho x) scores && existsb (fun x => Qeq_bool x rho) scores.

Theorem check_margin_exact_correct : forall s rs d W rho,
  check_margin_exact s rs d W rho = true ->
  margin_at_least (dataset s rs) (qvec d W) rho /\ margin_attained (dataset s rs) (qvec d W) rho.
Proof.
  intros s rs d W rho H. unfold check_margin_exact in H. cbv zeta in H.
  rewrite forallb_map_fuse, existsb_map_fuse in H.
  apply andb_true_iff in H. destruct H as [H Hex].
  split; [apply check_margin_correct | apply check_margin_attained_correct]; assumption.
Qed.

Definition check_radius_exact (s : positive) (rs : list zrow) (R2 : Q) : bool :=
  let norms := map (sqnorm s) rs in
  Qle_bool 0 R2 && forallb (fun x => Qle_bool x R2) norms && existsb (fun x => Qeq_bool x R2) norms.

Theorem check_radius_exact_correct : forall s rs R2,
  check_radius_exact s rs R2 = true ->
  radius2_at_most (dataset s rs) R2 /\ radius_attained (dataset s rs) R2.
Proof.
  intros s rs R2 H. unfold check_radius_exact in H. cbv zeta in H.
  rewrite forallb_map_fuse, existsb_map_fuse in H.
  apply andb_true_iff in H. destruct H as [H Hex].
  split; [apply check_radius_correct | apply check_radius_attained_correct]; assumption.
Qed.

(** ** The explicit bound N = floor(R2 ||w_f||^2 / rho^2) *)
Definition bound_floor (wf : vec) (rho R2 : Q) (N : Z) : Prop :=
  inject_Z N * (rho * rho) <= R2 * norm2 wf < inject_Z (N + 1) * (rho * rho).

Definition check_bound_floor (d : positive) (W : list Z) (rho R2 : Q) (N : Z) : bool :=
  let F := zdot W W # (d * d) in
  Qle_bool (inject_Z N * (rho * rho)) (R2 * F) && Qltb (R2 * F) (inject_Z (N + 1) * (rho * rho)).

Theorem check_bound_floor_correct : forall d W rho R2 N,
  check_bound_floor d W rho R2 N = true -> bound_floor (qvec d W) rho R2 N.
Proof.
  intros d W rho R2 N H. unfold check_bound_floor in H. apply andb_true_iff in H.
  destruct H as [H1 H2]. apply Qle_bool_iff in H1. apply Qltb_correct in H2.
  unfold bound_floor, norm2. rewrite dot_qvec. split; assumption.
Qed.

(** The corollary for a concrete data set: from the checked facts to the bound on every run. *)
Theorem certified_update_bound : forall data wf rho R2 N,
  labels_pm1 data -> margin_at_least data wf rho -> radius2_at_most data R2 ->
  bound_floor wf rho R2 N -> update_bound data N.
Proof.
  intros data wf rho R2 N Hl Hm Hr [_ HN]. exact (novikoff_bound data wf rho R2 N Hl Hm Hr HN).
Qed.

(** ** Gordan certificates of non-separability *)
Fixpoint zvadd (u v : list Z) : list Z :=
  match u, v with
  | [], _ => v
  | _, [] => u
  | a :: u', b :: v' => (a + b)%Z :: zvadd u' v'
  end.

Definition zscale (c : Z) (u : list Z) : list Z := map (Z.mul c) u.

(** sum_n lam_n y_n row_n *)
Fixpoint zcombo (rs : list zrow) (lam : list Z) : list Z :=
  match rs, lam with
  | r :: rs', l :: lam' => zvadd (zscale (l * snd r) (fst r)) (zcombo rs' lam')
  | _, _ => []
  end.

Definition check_gordan (rs : list zrow) (lam : list Z) : bool :=
  (length lam =? length rs)%nat && forallb (Z.leb 0) lam
  && existsb (fun l => negb (l =? 0)%Z) lam && forallb (Z.eqb 0) (zcombo rs lam).

Lemma dot_qvec_zvadd : forall s w a b,
  dot w (qvec s (zvadd a b)) == dot w (qvec s a) + dot w (qvec s b).
Proof.
  intros s. induction w as [|x w IH]; intros [|a u] [|b v]; simpl; try ring.
  rewrite IH. rewrite <- Qmake_add. ring.
Qed.

Lemma dot_qvec_zscale : forall s w c a,
  dot w (qvec s (zscale c a)) == inject_Z c * dot w (qvec s a).
Proof.
  intros s. induction w as [|x w IH]; intros c [|a u]; simpl; try ring.
  rewrite IH. rewrite <- inject_Z_mul_make. ring.
Qed.

Lemma dot_qvec_zeros : forall s w zs, forallb (Z.eqb 0) zs = true -> dot w (qvec s zs) == 0.
Proof.
  intros s. induction w as [|x w IH]; intros [|z zs] H; simpl; try reflexivity.
  change (forallb (Z.eqb 0) (z :: zs)) with (Z.eqb 0 z && forallb (Z.eqb 0) zs) in H.
  apply andb_true_iff in H. destruct H as [H0 H]. apply Z.eqb_eq in H0.
  rewrite IH by exact H. subst z. unfold Qeq; simpl. ring.
Qed.

(** sum_n lam_n y_n w.x_n *)
Fixpoint gsum (w : vec) (s : positive) (rs : list zrow) (lam : list Z) : Q :=
  match rs, lam with
  | r :: rs', l :: lam' =>
      inject_Z l * (snd (to_example s r) * dot w (fst (to_example s r))) + gsum w s rs' lam'
  | _, _ => 0
  end.

Lemma gsum_combo : forall w s rs lam, gsum w s rs lam == dot w (qvec s (zcombo rs lam)).
Proof.
  intros w s. induction rs as [|r rs IH]; intros [|l lam]; simpl;
    try (unfold qvec; simpl; rewrite dot_nil_r; reflexivity).
  rewrite dot_qvec_zvadd, dot_qvec_zscale, IH, inject_Z_mult. ring.
Qed.

Lemma gsum_pos : forall w s rs lam,
  (forall r, In r rs -> 0 < snd (to_example s r) * dot w (fst (to_example s r))) ->
  length lam = length rs -> forallb (Z.leb 0) lam = true ->
  existsb (fun l => negb (l =? 0)%Z) lam = true -> 0 <= gsum w s rs lam /\ (True -> 0 < gsum w s rs lam).
Proof.
  intros w s. induction rs as [|r rs IH]; intros [|l lam] Hpos Hlen Hnn Hex; simpl in *;
    try discriminate.
  apply andb_true_iff in Hnn. destruct Hnn as [Hl Hnn]. apply Z.leb_le in Hl.
  assert (Hv := Hpos r (or_introl eq_refl)). simpl in Hv.
  assert (Hl' : 0 <= inject_Z l) by (change 0 with (inject_Z 0); rewrite <- Zle_Qle; exact Hl).
  apply orb_true_iff in Hex.
  destruct (Z.eq_dec l 0) as [E|E].
  - subst l. destruct Hex as [Hex|Hex]; [simpl in Hex; discriminate|].
    destruct (IH lam (fun r' H => Hpos r' (or_intror H)) (eq_add_S _ _ Hlen) Hnn Hex) as [_ H].
    specialize (H I). change (inject_Z 0) with 0. split; intros; lra.
  - assert (Hl2 : 0 < inject_Z l).
    { change 0 with (inject_Z 0). rewrite <- Zlt_Qlt. lia. }
    assert (Hrest : 0 <= gsum w s rs lam).
    { clear Hex IH Hlen. revert lam Hnn.
      induction rs as [|r' rs IH2]; intros [|l' lam] Hnn; simpl; try apply Qle_refl.
      simpl in Hnn. apply andb_true_iff in Hnn. destruct Hnn as [Hl3 Hnn]. apply Z.leb_le in Hl3.
      assert (0 <= inject_Z l') by (change 0 with (inject_Z 0); rewrite <- Zle_Qle; exact Hl3).
      assert (Hv' := Hpos r' (or_intror (or_introl eq_refl))). simpl in Hv'.
      assert (0 <= gsum w s rs lam).
      { apply IH2; auto. intros r0 [H0|H0]; apply Hpos; auto. right; right; exact H0. }
      nra. }
    assert (0 < inject_Z l * (inject_Z (snd r) * dot w (qvec s (fst r)))) by nra.
    split; intros; lra.
Qed.

Theorem check_gordan_correct : forall s rs lam, check_gordan rs lam = true -> not_separable (dataset s rs).
Proof.
  intros s rs lam H w. unfold check_gordan in H.
  apply andb_true_iff in H. destruct H as [H Hzero].
  apply andb_true_iff in H. destruct H as [H Hex].
  apply andb_true_iff in H. destruct H as [Hlen Hnn]. apply Nat.eqb_eq in Hlen.
  destruct (Exists_dec (mistake w) (dataset s rs) (fun e => match Qlt_le_dec 0 (snd e * dot w (fst e)) with
                                                     | left L => right (Qlt_not_le _ _ L)
                                                     | right R => left R end)) as [Ex|NEx].
  - apply Exists_exists in Ex. exact Ex.
  - exfalso.
    assert (Hpos : forall r, In r rs -> 0 < snd (to_example s r) * dot w (fst (to_example s r))).
    { intros r Hr. apply Qnot_le_lt. intro M. apply NEx. apply Exists_exists.
      exists (to_example s r). split; [apply in_map; exact Hr | exact M]. }
    destruct (gsum_pos w s rs lam Hpos Hlen Hnn Hex) as [_ P]. specialize (P I).
    rewrite gsum_combo, dot_qvec_zeros in P by exact Hzero. lra.
Qed.

(** ** Tightness: the dual bound of multipliers alpha >= 0

    For alpha >= 0 and u = sum_n alpha_n y_n x_n, every separator v with margin rho_v has
    rho_v sum_n alpha_n <= sum_n alpha_n y_n v.x_n = v.u <= ||v|| ||u|| (Cauchy-Schwarz), so
    R2 ||v||^2 / rho_v^2 >= R2 (sum_n alpha_n)^2 / ||u||^2.  The checker confirms that this lower
    bound is at least N, so no separator gives a smaller integer bound than N. *)

(** sum_n alpha_n over the rows alpha is paired with. *)
Fixpoint zsum_on (rs : list zrow) (lam : list Z) : Z :=
  match rs, lam with
  | _ :: rs', l :: lam' => (l + zsum_on rs' lam')%Z
  | _, _ => 0%Z
  end.

Lemma gsum_margin : forall w rho s rs lam,
  (forall r, In r rs -> rho <= snd (to_example s r) * dot w (fst (to_example s r))) ->
  forallb (Z.leb 0) lam = true -> rho * inject_Z (zsum_on rs lam) <= gsum w s rs lam.
Proof.
  intros w rho s. induction rs as [|r rs IH]; intros [|l lam] Hm Hnn; simpl;
    try (change (inject_Z 0) with 0; lra).
  simpl in Hnn. apply andb_true_iff in Hnn. destruct Hnn as [Hl Hnn]. apply Z.leb_le in Hl.
  assert (Hl' : 0 <= inject_Z l) by (change 0 with (inject_Z 0); rewrite <- Zle_Qle; exact Hl).
  assert (Hr := Hm r (or_introl eq_refl)). simpl in Hr.
  assert (IHr := IH lam (fun r' H => Hm r' (or_intror H)) Hnn).
  rewrite inject_Z_plus. nra.
Qed.

Lemma zsum_on_nonneg : forall rs lam, forallb (Z.leb 0) lam = true -> (0 <= zsum_on rs lam)%Z.
Proof.
  induction rs as [|r rs IH]; intros [|l lam] H; simpl; try lia.
  simpl in H. apply andb_true_iff in H. destruct H as [Hl H]. apply Z.leb_le in Hl.
  specialize (IH lam H). lia.
Qed.

(** The integer lower bound N <= R2 (sum alpha)^2 / ||u||^2, with u = U / s, U = sum A y row. *)
Definition check_dual_bound (s : positive) (rs : list zrow) (A : list Z) (R2 : Q) (N : Z) : bool :=
  let U := zcombo rs A in
  let S := zsum_on rs A in
  forallb (Z.leb 0) A && Z.ltb 0 (zdot U U) && Qle_bool 0 R2
  && Qle_bool (inject_Z N * (zdot U U # (s * s))) (R2 * inject_Z (S * S)).

(** No separator of the data gives a Novikoff bound below N. *)
Definition no_smaller_bound (data : list example) (R2 : Q) (N : Z) : Prop :=
  forall v rho_v, margin_at_least data v rho_v -> inject_Z N * (rho_v * rho_v) <= R2 * norm2 v.

Theorem check_dual_bound_correct : forall s rs A R2 N,
  check_dual_bound s rs A R2 N = true -> no_smaller_bound (dataset s rs) R2 N.
Proof.
  intros s rs A R2 N H v rho [Hrho Hm]. unfold check_dual_bound in H.
  apply andb_true_iff in H. destruct H as [H HN]. apply Qle_bool_iff in HN.
  apply andb_true_iff in H. destruct H as [H HR]. apply Qle_bool_iff in HR.
  apply andb_true_iff in H. destruct H as [Hnn HU]. apply Z.ltb_lt in HU.
  set (u := qvec s (zcombo rs A)) in *.
  assert (Hu : norm2 u == zdot (zcombo rs A) (zcombo rs A) # (s * s)).
  { unfold norm2, u. apply dot_qvec. }
  assert (Hu0 : 0 < norm2 u).
  { rewrite Hu. unfold Qlt; simpl. lia. }
  rewrite <- Hu in HN.
  assert (Hm' : forall r, In r rs -> rho <= snd (to_example s r) * dot v (fst (to_example s r))).
  { intros r Hr. apply Hm. apply in_map. exact Hr. }
  assert (Hg := gsum_margin v rho s rs A Hm' Hnn). rewrite gsum_combo in Hg. fold u in Hg.
  assert (HS : 0 <= inject_Z (zsum_on rs A)).
  { change 0 with (inject_Z 0). rewrite <- Zle_Qle. apply zsum_on_nonneg. exact Hnn. }
  set (S := inject_Z (zsum_on rs A)) in *.
  rewrite inject_Z_mult in HN. fold S in HN.
  assert (Hcs := cauchy_schwarz v u).
  assert (H0 : 0 <= rho * S) by nra.
  assert (H1 : (rho * S) * (rho * S) <= dot v u * dot v u) by nra.
  assert (Hv := norm2_nonneg v).
  (* N rho^2 ||u||^2 <= R2 S^2 rho^2 <= R2 ||v||^2 ||u||^2, then divide by ||u||^2 > 0 *)
  assert (H2 : inject_Z N * (rho * rho) * norm2 u <= R2 * norm2 v * norm2 u).
  { assert (inject_Z N * norm2 u * (rho * rho) <= R2 * (S * S) * (rho * rho)).
    { apply Qmult_le_compat_r; [exact HN | nra]. }
    assert (((rho * S) * (rho * S)) * R2 <= (norm2 v * norm2 u) * R2).
    { apply Qmult_le_compat_r; [lra | exact HR]. }
    nra. }
  exact (Qmult_lt_0_le_reg_r _ _ _ Hu0 H2).
Qed.

(** ** Counting mistakes (the Pocket's training mistakes) *)

(** The number of examples of the data that w gets wrong (a zero score is a mistake). *)
Definition mistakes_of (data : list example) (w : vec) : nat :=
  length (filter (fun e => Qle_bool (snd e * dot w (fst e)) 0) data).

(** The boolean counted by [mistakes_of] is exactly [mistake]. *)
Lemma mistakes_of_counts_mistakes : forall w e,
  Qle_bool (snd e * dot w (fst e)) 0 = true <-> mistake w e.
Proof. intros w e. unfold mistake. apply Qle_bool_iff. Qed.
