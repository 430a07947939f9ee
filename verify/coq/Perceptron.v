(** * The Perceptron Learning Algorithm and Novikoff's theorem, proven once, in general.

    An example is a pair (x, y); PLA with learning rate eta updates w to w + eta y x on an
    example it gets wrong, where a zero score counts as a mistake (y w.x <= 0).  A run is any
    sequence of such updates from w_0 = 0, in any visiting order. *)

From Coq Require Import QArith List Lqa Lia.
From PLA Require Import Vectors.
Import ListNotations.
Open Scope Q_scope.

Definition example := (vec * Q)%type.

(** One PLA update on example e = (x, y): w + eta y x. *)
Definition pla_update (eta : Q) (w : vec) (e : example) : vec :=
  vadd w (vscale (eta * snd e) (fst e)).

(** w gets e wrong: y w.x <= 0 (a zero score is a mistake). *)
Definition mistake (w : vec) (e : example) : Prop := snd e * dot w (fst e) <= 0.

(** [pla_updates eta w es]: starting from w, every example of es in turn is a mistake of the
    current weights, which are then updated on it. *)
Fixpoint pla_updates (eta : Q) (w : vec) (es : list example) : Prop :=
  match es with
  | [] => True
  | e :: rest => mistake w e /\ pla_updates eta (pla_update eta w e) rest
  end.

(** The weights after the updates es. *)
Definition pla_weights (eta : Q) (w : vec) (es : list example) : vec :=
  fold_left (pla_update eta) es w.

(** A PLA run on [data]: a positive rate, updates from w_0 = 0 on examples of the data. *)
Definition pla_run_on (data : list example) (eta : Q) (es : list example) : Prop :=
  0 < eta /\ (forall e, In e es -> In e data) /\ pla_updates eta zero_vector es.

Definition labels_pm1 (data : list example) : Prop :=
  forall e, In e data -> snd e == 1 \/ snd e == -1.

(** w separates the data with margin rho: rho > 0 and y w.x >= rho for every example. *)
Definition margin_at_least (data : list example) (w : vec) (rho : Q) : Prop :=
  0 < rho /\ forall e, In e data -> rho <= snd e * dot w (fst e).

(** R2 bounds every squared norm. *)
Definition radius2_at_most (data : list example) (R2 : Q) : Prop :=
  0 <= R2 /\ forall e, In e data -> norm2 (fst e) <= R2.

(** A natural number as a rational. *)
Definition Qnat (n : nat) : Q := inject_Z (Z.of_nat n).

Lemma Qnat_0 : Qnat 0 == 0.
Proof. reflexivity. Qed.

Lemma Qnat_S : forall n, Qnat (S n) == Qnat n + 1.
Proof. intros n. unfold Qnat. rewrite Nat2Z.inj_succ, <- Z.add_1_r, inject_Z_plus. reflexivity. Qed.

Lemma Qnat_nonneg : forall n, 0 <= Qnat n.
Proof. intros n. unfold Qnat. change 0 with (inject_Z 0). rewrite <- Zle_Qle. lia. Qed.

Section Run.
  Variables (data : list example) (wf : vec) (rho R2 eta : Q).
  Hypothesis labels : labels_pm1 data.
  Hypothesis margin : margin_at_least data wf rho.
  Hypothesis radius : radius2_at_most data R2.
  Hypothesis eta_pos : 0 < eta.

  (** Every update raises wf.w by at least eta rho. *)
  Lemma inner_product_grows : forall es w,
    (forall e, In e es -> In e data) ->
    dot wf w + Qnat (length es) * eta * rho <= dot wf (pla_weights eta w es).
  Proof.
    unfold pla_weights. induction es as [|e es IH]; intros w Hin; simpl.
    - rewrite Qnat_0. lra.
    - assert (He : rho <= snd e * dot wf (fst e)) by (apply margin; apply Hin; left; auto).
      specialize (IH (pla_update eta w e) (fun e' H => Hin e' (or_intror H))).
      unfold pla_update in IH at 1.
      rewrite dot_add_r, dot_scale_r in IH. rewrite Qnat_S.
      assert (eta * rho <= eta * (snd e * dot wf (fst e))) by nra.
      nra.
  Qed.

  (** Every update on a mistake raises ||w||^2 by at most eta^2 R2. *)
  Lemma norm_grows_slowly : forall es w,
    (forall e, In e es -> In e data) -> pla_updates eta w es ->
    norm2 (pla_weights eta w es) <= norm2 w + Qnat (length es) * (eta * eta * R2).
  Proof.
    unfold pla_weights. induction es as [|e es IH]; intros w Hin Hrun; simpl.
    - rewrite Qnat_0. lra.
    - destruct Hrun as [Hm Hrun].
      assert (Hd : In e data) by (apply Hin; left; auto).
      assert (Hy : snd e * snd e == 1) by (destruct (labels e Hd) as [H|H]; rewrite H; reflexivity).
      assert (Hx : norm2 (fst e) <= R2) by (apply radius; exact Hd).
      specialize (IH (pla_update eta w e) (fun e' H => Hin e' (or_intror H)) Hrun).
      unfold mistake in Hm.
      assert (Step : norm2 (pla_update eta w e) <= norm2 w + eta * eta * R2).
      { unfold pla_update, norm2.
        rewrite !dot_add_l, !dot_add_r, !dot_scale_l, !dot_scale_r.
        rewrite (dot_sym (fst e) w).
        fold (norm2 w) (norm2 (fst e)).
        assert (E : eta * snd e * (eta * snd e * norm2 (fst e))
                    == eta * eta * (snd e * snd e) * norm2 (fst e)) by ring.
        rewrite E, Hy.
        assert (eta * (snd e * dot w (fst e)) <= 0) by nra.
        assert (eta * eta * 1 * norm2 (fst e) <= eta * eta * R2) by nra.
        nra. }
      rewrite Qnat_S. lra.
  Qed.

  (** Novikoff's theorem: every PLA run from w_0 = 0 has T updates with T rho^2 <= R2 ||wf||^2. *)
  Theorem novikoff : forall es, pla_run_on data eta es ->
    Qnat (length es) * (rho * rho) <= R2 * norm2 wf.
  Proof.
    intros es [_ [Hin Hrun]].
    destruct margin as [rho_pos _].
    destruct radius as [R2_nonneg _].
    set (T := Qnat (length es)).
    set (w := pla_weights eta zero_vector es).
    pose proof (inner_product_grows es zero_vector Hin) as HD.
    pose proof (norm_grows_slowly es zero_vector Hin Hrun) as HW.
    fold T w in HD, HW.
    change (dot wf zero_vector) with (dot wf []) in HD. rewrite dot_nil_r in HD.
    change (norm2 zero_vector) with 0 in HW.
    pose proof (cauchy_schwarz wf w) as CS.
    pose proof (norm2_nonneg wf) as HF.
    assert (HT : 0 <= T) by apply Qnat_nonneg.
    destruct (Qlt_le_dec 0 T) as [T0 | T0].
    - set (D := dot wf w) in *. set (F := norm2 wf) in *. set (W := norm2 w) in *.
      assert (Hk : 0 < T * (eta * eta)) by (apply Qmult_lt_0_compat; [exact T0 | nra]).
      assert (X0 : 0 <= T * eta * rho).
      { apply Qmult_le_0_compat; [apply Qmult_le_0_compat|]; lra. }
      assert (XD : T * eta * rho <= D) by lra.
      assert (A : T * eta * rho * (T * eta * rho) <= D * D).
      { apply Qmult_le_compat_nonneg; split; assumption. }
      assert (B : F * W <= F * (T * (eta * eta * R2))).
      { apply Qmult_le_compat_nonneg; split; try lra. apply norm2_nonneg. }
      apply (Qmult_le_l _ _ (T * (eta * eta)) Hk).
      assert (E1 : T * (eta * eta) * (T * (rho * rho)) == T * eta * rho * (T * eta * rho)) by ring.
      assert (E2 : T * (eta * eta) * (R2 * F) == F * (T * (eta * eta * R2))) by ring.
      rewrite E1, E2. lra.
    - assert (T == 0) by lra. rewrite H. nra.
  Qed.
End Run.

(** The explicit corollary: if R2 ||wf||^2 < (N + 1) rho^2, no run makes more than N updates. *)
Definition update_bound (data : list example) (N : Z) : Prop :=
  forall eta es, pla_run_on data eta es -> (Z.of_nat (length es) <= N)%Z.

Theorem novikoff_bound : forall data wf rho R2 (N : Z),
  labels_pm1 data -> margin_at_least data wf rho -> radius2_at_most data R2 ->
  R2 * norm2 wf < inject_Z (N + 1) * (rho * rho) ->
  update_bound data N.
Proof.
  intros data wf rho R2 N Hl Hm Hr HN eta es Hrun.
  assert (Heta : 0 < eta) by (destruct Hrun; auto).
  pose proof (novikoff data wf rho R2 eta Hl Hm Hr Heta es Hrun) as H.
  destruct Hm as [rho_pos _].
  assert (Hlt : Qnat (length es) < inject_Z (N + 1)).
  { destruct (Qlt_le_dec (Qnat (length es)) (inject_Z (N + 1))) as [L|L]; [exact L|].
    exfalso. assert (inject_Z (N + 1) * (rho * rho) <= Qnat (length es) * (rho * rho)) by nra.
    lra. }
  unfold Qnat in Hlt. rewrite <- Zlt_Qlt in Hlt. lia.
Qed.

(** Not separable: every w gets some example wrong. *)
Definition not_separable (data : list example) : Prop :=
  forall w, exists e, In e data /\ mistake w e.

(** On data that are not separable, PLA never halts: runs of every length exist. *)
Theorem pla_never_halts : forall data eta, not_separable data ->
  forall T : nat, exists es, length es = T /\ (forall e, In e es -> In e data)
                            /\ pla_updates eta zero_vector es.
Proof.
  intros data eta Hns T.
  assert (G : forall T w, exists es, length es = T /\ (forall e, In e es -> In e data)
                                  /\ pla_updates eta w es).
  { induction T0 as [|T0 IH]; intros w.
    - exists []. repeat split; simpl; tauto.
    - destruct (Hns w) as [e [He Hm]].
      destruct (IH (pla_update eta w e)) as [es [Hlen [Hin Hrun]]].
      exists (e :: es). simpl. repeat split; auto.
      intros e' [<- | H]; auto. }
  apply G.
Qed.
