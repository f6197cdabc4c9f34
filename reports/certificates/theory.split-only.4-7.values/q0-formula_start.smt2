; benchmark generated from python API
(set-info :status unknown)
(declare-fun n () Int)
(assert
 (let ((?x172583 (ite (= 0 (+ n 2)) 0 (- 2 (mod (+ n 2) 2)))))
(let (($x7438 (= ?x172583 (+ (ite (= 0 n) 0 (- 2 (mod n 2))) 0))))
(let (($x73744 (>= n 1)))
(and $x73744 (or (and (distinct true true) true) (and true (not $x7438))))))))
(check-sat)
