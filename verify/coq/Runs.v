(** * One recorded PLA run, replayed by computation.

    A run is given by the rows it updated on, in order.  The checker [replay] recomputes the
    weights in integers (w_t = W_t / (b s) for eta = a / b and x = row / s) and checks that
    every update was made on a mistake; [replay_correct] proves that it then is a PLA run in
    the sense of [Perceptron.pla_run_on]. *)

From Coq Require Import QArith List Lqa Lia ZArith NArith Bool.
From PLA Require Import Vectors Perceptron Certificates.
Import ListNotations.
Open Scope Q_scope.

(** The examples a run updated on, given by their 0-based row numbers. *)
Definition updates_of (data : list example) (idx : list N) : list example :=
  map (fun i => nth (N.to_nat i) data ([], 0)) idx.

(** Two vectors with the same inner product against every vector. *)
Definition same_dots (u v : vec) : Prop := forall z, dot u z == dot v z.

Lemma mistake_same_dots : forall u v e, same_dots u v -> mistake u e -> mistake v e.
Proof. intros u v e H M. unfold mistake, same_dots in *. rewrite <- H. exact M. Qed.

Lemma update_same_dots : forall eta u v e, same_dots u v ->
  same_dots (pla_update eta u e) (pla_update eta v e).
Proof.
  intros eta u v e H z. unfold same_dots in H. unfold pla_update. rewrite !dot_add_l, H.
  reflexivity.
Qed.

Lemma pla_updates_same_dots : forall eta es u v, same_dots u v ->
  pla_updates eta v es -> pla_updates eta u es.
Proof.
  intros eta. induction es as [|e es IH]; intros u v H R; simpl in *; auto.
  destruct R as [M R]. split.
  - apply (mistake_same_dots v u); [intro z; symmetry; apply H | exact M].
  - apply (IH _ (pla_update eta v e)); [apply update_same_dots; exact H | exact R].
Qed.

Lemma dot_qvec_rescale : forall b s u z, dot (qvec (b * s) u) z == (1 # b) * dot (qvec s u) z.
Proof.
  intros b s. induction u as [|a u IH]; intros [|c z]; simpl; try ring.
  rewrite IH. assert (E : a # b * s == (1 # b) * (a # s)).
  { unfold Qeq, Qmult. cbn [Qnum Qden]. rewrite !Pos2Z.inj_mul. ring. }
  rewrite E. ring.
Qed.

Lemma dot_qvec_zvadd_l : forall s a b z,
  dot (qvec s (zvadd a b)) z == dot (qvec s a) z + dot (qvec s b) z.
Proof. intros. rewrite !(dot_sym _ z). apply dot_qvec_zvadd. Qed.

Lemma dot_qvec_zscale_l : forall s c a z,
  dot (qvec s (zscale c a)) z == inject_Z c * dot (qvec s a) z.
Proof. intros. rewrite !(dot_sym _ z). apply dot_qvec_zscale. Qed.

(** The integer update W + a y row keeps w = W / (b s) equal (in every inner product) to PLA's
    weights with eta = a / b. *)
Lemma zupdate_same_dots : forall s a b W r,
  same_dots (pla_update (a # b) (qvec (b * s) W) (to_example s r))
            (qvec (b * s) (zvadd W (zscale (a * snd r) (fst r)))).
Proof.
  intros s a b W r z. unfold pla_update, to_example. simpl.
  rewrite dot_add_l, dot_scale_l, dot_qvec_zvadd_l, dot_qvec_zscale_l, !dot_qvec_rescale.
  rewrite inject_Z_mult.
  assert (E : a # b == inject_Z a * (1 # b)).
  { unfold Qeq, Qmult, inject_Z. cbn [Qnum Qden]. rewrite Pos.mul_1_l. ring. }
  rewrite E. ring.
Qed.

Fixpoint replay (s b : positive) (a : Z) (rs : list zrow) (W : list Z) (idx : list N) : bool :=
  match idx with
  | [] => true
  | i :: rest =>
      match nth_error rs (N.to_nat i) with
      | None => false
      | Some r => Z.leb (snd r * zdot W (fst r)) 0
                  && replay s b a rs (zvadd W (zscale (a * snd r) (fst r))) rest
      end
  end.

Lemma Qmake_nonpos : forall k q, (k <= 0)%Z -> k # q <= 0.
Proof. intros k q H. unfold Qle; simpl. lia. Qed.

Lemma replay_updates : forall s b a rs idx W,
  replay s b a rs W idx = true ->
  pla_updates (a # b) (qvec (b * s) W) (updates_of (dataset s rs) idx).
Proof.
  intros s b a rs. induction idx as [|i idx IH]; intros W H; simpl in *; auto.
  destruct (nth_error rs (N.to_nat i)) as [r|] eqn:Hr; [|discriminate].
  apply andb_true_iff in H. destruct H as [M H].
  assert (Hn : nth (N.to_nat i) (dataset s rs) ([], 0) = to_example s r).
  { unfold dataset. apply nth_error_nth. rewrite nth_error_map, Hr. reflexivity. }
  rewrite Hn. split.
  - unfold mistake, to_example. simpl. rewrite dot_qvec, inject_Z_mul_make.
    apply Qmake_nonpos. apply Z.leb_le. exact M.
  - apply (pla_updates_same_dots _ _ _ (qvec (b * s) (zvadd W (zscale (a * snd r) (fst r))))).
    + apply zupdate_same_dots.
    + apply IH. exact H.
Qed.

Lemma replay_in_data : forall s b a rs idx W, replay s b a rs W idx = true ->
  forall e, In e (updates_of (dataset s rs) idx) -> In e (dataset s rs).
Proof.
  intros s b a rs. induction idx as [|i idx IH]; intros W H e He; simpl in *; [contradiction|].
  destruct (nth_error rs (N.to_nat i)) as [r|] eqn:Hr; [|discriminate].
  apply andb_true_iff in H. destruct H as [_ H].
  destruct He as [<- | He]; [|exact (IH _ H e He)].
  apply nth_In. unfold dataset. rewrite map_length.
  apply nth_error_Some. rewrite Hr. discriminate.
Qed.

(** The replay checker is correct: the recorded updates are a PLA run from w_0 = 0. *)
Theorem replay_correct : forall s rs (a : Z) (b : positive) idx,
  Qltb 0 (a # b) = true -> replay s b a rs [] idx = true ->
  pla_run_on (dataset s rs) (a # b) (updates_of (dataset s rs) idx).
Proof.
  intros s rs a b idx Ha H. split; [apply Qltb_correct; exact Ha|]. split.
  - exact (replay_in_data s b a rs idx [] H).
  - exact (replay_updates s b a rs idx [] H).
Qed.

(** ** Halting: after the run's last update no example is a mistake *)

(** The final weights of the run are not a mistake on any example of the data. *)
Definition no_mistake_left (data : list example) (eta : Q) (es : list example) : Prop :=
  forall e, In e data -> ~ mistake (pla_weights eta zero_vector es) e.

(** The integer weights W after the updates idx (w = W / (b s)). *)
Fixpoint replay_weights (a : Z) (rs : list zrow) (W : list Z) (idx : list N) : list Z :=
  match idx with
  | [] => W
  | i :: rest =>
      match nth_error rs (N.to_nat i) with
      | None => W
      | Some r => replay_weights a rs (zvadd W (zscale (a * snd r) (fst r))) rest
      end
  end.

Lemma replay_weights_same_dots : forall s b a rs idx W u,
  replay s b a rs W idx = true -> same_dots u (qvec (b * s) W) ->
  same_dots (pla_weights (a # b) u (updates_of (dataset s rs) idx))
            (qvec (b * s) (replay_weights a rs W idx)).
Proof.
  intros s b a rs. induction idx as [|i idx IH]; intros W u H Hu; simpl in *; [exact Hu|].
  destruct (nth_error rs (N.to_nat i)) as [r|] eqn:Hr; [|discriminate].
  apply andb_true_iff in H. destruct H as [_ H].
  assert (Hn : nth (N.to_nat i) (dataset s rs) ([], 0) = to_example s r).
  { unfold dataset. apply nth_error_nth. rewrite nth_error_map, Hr. reflexivity. }
  rewrite Hn. apply IH; [exact H|].
  intro z. rewrite (update_same_dots _ u (qvec (b * s) W) _ Hu z). apply zupdate_same_dots.
Qed.

Definition check_halts (a : Z) (rs : list zrow) (idx : list N) : bool :=
  let W := replay_weights a rs [] idx in
  forallb (fun r => Z.ltb 0 (snd r * zdot W (fst r))) rs.

Theorem check_halts_correct : forall s rs (a : Z) (b : positive) idx,
  replay s b a rs [] idx = true -> check_halts a rs idx = true ->
  no_mistake_left (dataset s rs) (a # b) (updates_of (dataset s rs) idx).
Proof.
  intros s rs a b idx H Hh e He M. apply in_dataset in He. destruct He as [r [-> Hr]].
  assert (Hs := replay_weights_same_dots s b a rs idx [] zero_vector H (fun z => Qeq_refl _)).
  unfold check_halts in Hh. rewrite forallb_forall in Hh. specialize (Hh r Hr).
  apply Z.ltb_lt in Hh.
  unfold mistake, to_example in M. cbn [fst snd] in M. rewrite (Hs (qvec s (fst r))) in M.
  rewrite dot_qvec, inject_Z_mul_make in M. unfold Qle in M. simpl in M. lia.
Qed.
