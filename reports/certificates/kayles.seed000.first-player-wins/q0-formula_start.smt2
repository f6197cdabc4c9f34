; benchmark generated from python API
(set-info :status unknown)
(declare-fun n () Int)
(assert
 (let (($x65176 (or (and (distinct true true) true) (and true (not (= (= 0 n) (= 0 (+ n 12))))))))
(let (($x157588 (>= n 71)))
(and $x157588 $x65176))))
(check-sat)
