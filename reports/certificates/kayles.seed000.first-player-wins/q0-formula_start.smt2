; benchmark generated from python API
(set-info :status unknown)
(declare-fun n () Int)
(assert
 (let (($x219110 (or (and (distinct true true) true) (and true (not (= (= 0 n) (= 0 (+ n 12))))))))
(let (($x166707 (>= n 71)))
(and $x166707 $x219110))))
(check-sat)
