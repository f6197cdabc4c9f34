; benchmark generated from python API
(set-info :status unknown)
(declare-fun n () (_ BitVec 71))
(declare-fun m () (_ BitVec 71))
(assert
 (bvult n (_ bv18446744073709551616 71)))
(assert
 (bvult m n))
(assert
 (let (($x138219 (or (not (= ((_ extract 70 70) n) (_ bv0 1))) (bvule ((_ extract 70 1) n) ((_ extract 69 0) n)))))
(not (and $x138219))))
(check-sat)
